package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.engine.trino.TrinoErrors;
import dev.sqlagent.execution.ErrorCategory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link TrinoErrors} on errors the real cluster reports, each caused here. */
class TrinoErrorsTest {

    @BeforeAll
    static void load() throws SQLException {
        TrinoFixture.cluster();
        TrinoStaff.load();
    }

    private static ErrorCategory categoryOf(String sql) throws SQLException {
        try (Connection c = TrinoFixture.admin("memory", "staff"); Statement s = c.createStatement()) {
            s.executeQuery(sql).next();
        } catch (SQLException e) {
            assertThat(e.getSQLState()).as("the driver sets no SQLState").isNull();
            return TrinoErrors.classify(e);
        }
        throw new AssertionError("no error from " + sql);
    }

    @Test
    void eachCategoryFromTheCluster() throws SQLException {
        assertThat(categoryOf("SELEC 1")).isEqualTo(ErrorCategory.SYNTAX_ERROR);
        assertThat(categoryOf("SELECT nme FROM people")).isEqualTo(ErrorCategory.COLUMN_NOT_FOUND);
        assertThat(categoryOf("SELECT name FROM peoplex")).isEqualTo(ErrorCategory.TABLE_NOT_FOUND);
        assertThat(categoryOf("SELECT name FROM nosuch.people")).isEqualTo(ErrorCategory.TABLE_NOT_FOUND);
        assertThat(categoryOf("SELECT * FROM nocatalog.a.b")).isEqualTo(ErrorCategory.TABLE_NOT_FOUND);
        assertThat(categoryOf("SELECT id FROM people p JOIN depts d ON p.dept = d.id"))
                .isEqualTo(ErrorCategory.AMBIGUOUS_COLUMN);
        assertThat(categoryOf("SELECT name, count(*) FROM people")).isEqualTo(ErrorCategory.GROUPING_ERROR);
        assertThat(categoryOf("SELECT foo(name) FROM people")).isEqualTo(ErrorCategory.FUNCTION_NOT_FOUND);
        assertThat(categoryOf("SELECT name + 1 FROM people")).isEqualTo(ErrorCategory.TYPE_MISMATCH);
        assertThat(categoryOf("SELECT CAST(name AS integer) FROM people")).isEqualTo(ErrorCategory.TYPE_MISMATCH);
        assertThat(categoryOf("SELECT 1 / (id - id) FROM people")).isEqualTo(ErrorCategory.UNKNOWN);
    }

    @Test
    void anUnreachableClusterIsAConnectionError() {
        // port 1 on loopback: nothing listens there
        try (Connection c = DriverManager.getConnection("jdbc:trino://127.0.0.1:1/memory/default", "x", null);
             Statement s = c.createStatement()) {
            s.executeQuery("SELECT 1");
            throw new AssertionError("port 1 answered");
        } catch (SQLException e) {
            assertThat(TrinoErrors.classify(e)).isEqualTo(ErrorCategory.CONNECTION);
        }
    }
}
