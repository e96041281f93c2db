package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import org.junit.jupiter.api.Test;

/**
 * The held-out round of issue 29 through the full default path on the twins ({@link HostileHeldOutTest#run}):
 * names spelled in another case or quoting than the FROM item they seem to name, in
 * {@code core/src/test/resources/hostile-heldout-case/}. Fails on any escape.
 */
class IdentifierCaseHeldOutTest {

    private static final String DIR = "hostile-heldout-case";

    @Test
    void onH2NoCaseStatementEscapes() throws Exception {
        HostileHeldOutTest.run(DIR, Dialect.H2, 20);
    }

    @Test
    void onPostgresqlNoCaseStatementEscapes() throws Exception {
        HostileHeldOutTest.run(DIR, Dialect.POSTGRESQL, 15);
    }

    @Test
    void onMariadbNoCaseStatementEscapes() throws Exception {
        HostileHeldOutTest.run(DIR, Dialect.MARIADB, 10);
    }

    @Test
    void onSqliteNoCaseStatementEscapes() throws Exception {
        HostileHeldOutTest.run(DIR, Dialect.SQLITE, 5);
    }

    @Test
    void onDuckdbNoCaseStatementEscapes() throws Exception {
        HostileHeldOutTest.run(DIR, Dialect.DUCKDB, 5);
    }
}
