package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import org.junit.jupiter.api.Test;

/**
 * Held-out round 4, written by the lead while the identity classes of issue 29 were being fixed and not
 * shown to the people fixing them: quoted and bare names of different case in every position, aliases whose
 * case the engine compares, index hints and unordered reads of a table with an index on a denied column,
 * catalog types that name a forbidden table's row. Run like {@link HostileHeldOutTest} (the full default path
 * on both twins, the same judge) from {@code core/src/test/resources/hostile-lead/}.
 */
class LeadHeldOutTest {

    @Test
    void onH2NoLeadStatementEscapes() throws Exception {
        HostileHeldOutTest.run("hostile-lead", Dialect.H2, 20);
    }

    @Test
    void onSqliteNoLeadStatementEscapes() throws Exception {
        HostileHeldOutTest.run("hostile-lead", Dialect.SQLITE, 20);
    }

    @Test
    void onPostgresqlNoLeadStatementEscapes() throws Exception {
        HostileHeldOutTest.run("hostile-lead", Dialect.POSTGRESQL, 20);
    }

    @Test
    void onMariadbNoLeadStatementEscapes() throws Exception {
        HostileHeldOutTest.run("hostile-lead", Dialect.MARIADB, 20);
    }

    @Test
    void onDuckdbNoLeadStatementEscapes() throws Exception {
        HostileHeldOutTest.run("hostile-lead", Dialect.DUCKDB, 18);
    }
}
