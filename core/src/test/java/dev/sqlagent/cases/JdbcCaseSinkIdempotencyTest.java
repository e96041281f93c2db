package dev.sqlagent.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.testing.DatabaseServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A retry after a lost acknowledgement stores nothing twice and fails nothing, on every engine the
 * sink names; bad data is a permanent error. PostgreSQL and MariaDB run when their servers answer.
 */
class JdbcCaseSinkIdempotencyTest {

    private static final String TABLE = "pairs_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    @Test
    void h2() throws Exception {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:sink-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        check(ds);
    }

    @Test
    void duckdb(@TempDir Path dir) throws Exception {
        check(new UrlDataSource("jdbc:duckdb:" + dir.resolve("cases.duckdb"), null, null));
    }

    @Test
    void sqlite(@TempDir Path dir) throws Exception {
        check(new UrlDataSource("jdbc:sqlite:" + dir.resolve("cases.db"), null, null));
    }

    @Test
    void postgres() throws Exception {
        check(DatabaseServer.postgres().require().adminDataSource());
    }

    @Test
    void mariadb() throws Exception {
        check(DatabaseServer.mariadb().require().adminDataSource());
    }

    private static void check(DataSource ds) throws Exception {
        JdbcCaseSink sink = JdbcCaseSink.create(ds, TABLE);
        try {
            CaseRecord c = CaseDeliveryTest.caseNo(1);
            sink.accept(c);
            sink.accept(c); // the retry after a lost acknowledgement
            sink.accept(CaseDeliveryTest.caseNo(2));
            assertThat(ids(ds)).containsExactly("id-1", "id-2");
            sink.acceptAll(List.of(CaseDeliveryTest.caseNo(1), CaseDeliveryTest.caseNo(3), CaseDeliveryTest.caseNo(2)));
            assertThat(ids(ds)).containsExactly("id-1", "id-2", "id-3");

            boolean sqlite = ds.getConnection().getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT)
                    .contains("sqlite") || ds.getConnection().getMetaData().getDatabaseProductName()
                    .toLowerCase(Locale.ROOT).contains("duckdb");
            if (!sqlite) { // SQLite and DuckDB do not enforce VARCHAR lengths
                CaseRecord bad = new CaseRecord("id-4", "q", "", "", "", CaseRecord.Status.BAD, "FAILED", "e",
                        "X".repeat(100), List.of(), false, java.util.OptionalInt.empty(), 0, List.of(), List.of(),
                        List.of(), c.createdAt(), "{}");
                assertThatThrownBy(() -> sink.accept(bad)).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(CaseDelivery.isPermanent(e)).as(e.toString()).isTrue());
                assertThat(ids(ds)).containsExactly("id-1", "id-2", "id-3");
                assertThatThrownBy(() -> sink.acceptAll(List.of(CaseDeliveryTest.caseNo(5), bad)))
                        .satisfies(e -> assertThat(CaseDelivery.isPermanent(e)).as(e.toString()).isTrue());
                assertThat(ids(ds)).as("all or nothing").containsExactly("id-1", "id-2", "id-3");
            }
        } finally {
            try (Connection conn = ds.getConnection(); Statement s = conn.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + TABLE);
            }
        }
    }

    private static List<String> ids(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id FROM " + TABLE + " ORDER BY id")) {
            List<String> out = new java.util.ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }
}
