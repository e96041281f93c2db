package dev.sqlagent.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

class CompanyDatabaseTest {

    @Test
    void theAnalystReadsTheAllowedTablesWithTheirRows() throws SQLException {
        CompanyDatabase db = CompanyDatabase.create();
        assertThat(count(db.analyst(), "SELECT COUNT(*) FROM orders WHERE status = 'paid'"
                + " AND order_date >= DATE '2023-01-01' AND order_date < DATE '2024-01-01'")).isEqualTo(32);
        assertThat(count(db.analyst(), "SELECT COUNT(*) FROM regions")).isEqualTo(3);
        for (String table : CompanyDatabase.ALLOWED_TABLES) {
            if (!table.equals("audit_log")) {
                assertThat(count(db.analyst(), "SELECT COUNT(*) FROM " + table)).as(table).isPositive();
            }
        }
    }

    @Test
    void theAnalystMayNotReadTheAuditLogNorWriteButTheAdministratorMay() throws SQLException {
        CompanyDatabase db = CompanyDatabase.create();
        assertThatThrownBy(() -> count(db.analyst(), "SELECT COUNT(*) FROM audit_log"))
                .isInstanceOf(SQLException.class).hasMessageContaining("AUDIT_LOG");
        assertThatThrownBy(() -> update(db.analyst(), "DELETE FROM orders")).isInstanceOf(SQLException.class);
        assertThat(count(db.admin(), "SELECT COUNT(*) FROM audit_log")).isPositive();
        assertThat(CompanyDatabase.ALLOWED_TABLES).contains("audit_log").doesNotContain("salary_detail");
    }

    @Test
    void eachDatabaseIsItsOwn() throws SQLException {
        CompanyDatabase a = CompanyDatabase.create();
        CompanyDatabase b = CompanyDatabase.create();
        assertThat(a.url()).isNotEqualTo(b.url());
        long before = count(b.admin(), "SELECT COUNT(*) FROM orders");
        update(a.admin(), "DELETE FROM orders");
        assertThat(count(a.admin(), "SELECT COUNT(*) FROM orders")).isZero();
        assertThat(count(b.admin(), "SELECT COUNT(*) FROM orders")).isEqualTo(before).isPositive();
    }

    private static long count(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void update(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }
}
