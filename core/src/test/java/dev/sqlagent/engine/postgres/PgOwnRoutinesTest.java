package dev.sqlagent.engine.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.testing.DatabaseServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Whether the database defines routines of its own on the search path ({@link PgObjects#OWN_ROUTINES}) decides
 * whether the engine check reads the planner's tree for the identity of every function and operator. The test
 * looks only at objects numbered from {@link PgObjects#FIRST_UNFIXED_OID} on, through the OID indexes; here each
 * kind of object the database can define is created alone, in a transaction rolled back (PostgreSQL's DDL is
 * transactional, so nothing is left in the shared server), and the bounded test must answer as the same test over
 * every row does, and answer "yes" wherever it should.
 */
class PgOwnRoutinesTest {

    /** The same test without the OID bounds: what the bounded one must always agree with. */
    private static final String UNBOUNDED = PgObjects.OWN_ROUTINES
            .replace("p.oid >= " + PgObjects.FIRST_UNFIXED_OID + " AND ", "")
            .replace("o.oid >= " + PgObjects.FIRST_UNFIXED_OID + " AND ", "")
            .replace("k.castfunc >= " + PgObjects.FIRST_UNFIXED_OID + " AND ", "");

    private record Answer(boolean bounded, boolean unbounded) {
    }

    private static Answer ask(String... ddl) throws SQLException {
        DataSource ds = DatabaseServer.postgres().require().adminDataSource();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            try {
                s.execute("CREATE SCHEMA own_routines_t");
                s.execute("CREATE SCHEMA own_routines_off");
                s.execute("SET LOCAL search_path = own_routines_t");
                for (String d : ddl) {
                    s.execute(d);
                }
                boolean bounded;
                try (ResultSet rs = s.executeQuery("SELECT " + PgObjects.OWN_ROUTINES)) {
                    rs.next();
                    bounded = rs.getBoolean(1);
                }
                try (ResultSet rs = s.executeQuery("SELECT " + UNBOUNDED)) {
                    rs.next();
                    return new Answer(bounded, rs.getBoolean(1));
                }
            } finally {
                c.rollback();
            }
        }
    }

    @Test
    void theBoundsAreInTheTestAndCanBeTakenOut() {
        assertThat(UNBOUNDED).isNotEqualTo(PgObjects.OWN_ROUTINES).doesNotContain(">= 10000");
        assertThat(PgObjects.OWN_ROUTINES.split(">= 10000", -1)).hasSize(4);
    }

    @Test
    void aPathWithNoRoutinesOfItsOwnHasNone() throws SQLException {
        // casts are global: the shared test database must not hold one through a function of its own
        assertThat(ask()).isEqualTo(new Answer(false, false));
        assertThat(ask("CREATE TABLE t(a int)", "CREATE VIEW v AS SELECT a FROM t")).isEqualTo(new Answer(false, false));
    }

    @Test
    void eachKindOfRoutineTheDatabaseDefinesIsFound() throws SQLException {
        for (List<String> ddl : List.of(
                List.of("CREATE FUNCTION f(int) RETURNS int LANGUAGE sql AS 'SELECT $1'"),
                List.of("CREATE FUNCTION lower(int) RETURNS text LANGUAGE sql AS 'SELECT $1::text'"),
                List.of("CREATE PROCEDURE p() LANGUAGE sql AS 'SELECT 1'"),
                List.of("CREATE FUNCTION acc(int, int) RETURNS int LANGUAGE sql AS 'SELECT $1 + $2'",
                        "CREATE AGGREGATE total(int) (SFUNC = acc, STYPE = int)"),
                // created by a superuser in pg_catalog itself: the database's own by its OID
                List.of("CREATE FUNCTION pg_catalog.own_routines_f(int) RETURNS int LANGUAGE sql AS 'SELECT $1'"),
                List.of("CREATE OPERATOR pg_catalog.#~# (LEFTARG = int, RIGHTARG = int, FUNCTION = pg_catalog.int4pl)"),
                List.of("CREATE TYPE own_routines_off.mood AS ENUM ('happy', 'sad')",
                        "CREATE FUNCTION pg_catalog.own_routines_mood(own_routines_off.mood) RETURNS int "
                                + "LANGUAGE sql AS 'SELECT 1'",
                        "CREATE CAST (own_routines_off.mood AS int) WITH FUNCTION "
                                + "pg_catalog.own_routines_mood(own_routines_off.mood)"),
                // an operator of the database's own over a built-in function
                List.of("CREATE OPERATOR #~# (LEFTARG = int, RIGHTARG = int, FUNCTION = pg_catalog.int4pl)"),
                // a cast through a function in a schema off the path: casts apply everywhere
                List.of("CREATE TYPE own_routines_off.mood AS ENUM ('happy', 'sad')",
                        "CREATE FUNCTION own_routines_off.mood_int(own_routines_off.mood) RETURNS int "
                                + "LANGUAGE sql AS 'SELECT 1'",
                        "CREATE CAST (own_routines_off.mood AS int) WITH FUNCTION "
                                + "own_routines_off.mood_int(own_routines_off.mood)"))) {
            assertThat(ask(ddl.toArray(String[]::new))).as("%s", ddl).isEqualTo(new Answer(true, true));
        }
    }

    @Test
    void routinesOffThePathAndCastsWithoutAFunctionAreNotTheDatabasesOnTheirPath() throws SQLException {
        for (List<String> ddl : List.of(
                List.of("CREATE FUNCTION own_routines_off.f(int) RETURNS int LANGUAGE sql AS 'SELECT $1'"),
                List.of("CREATE OPERATOR own_routines_off.#~# (LEFTARG = int, RIGHTARG = int, "
                        + "FUNCTION = pg_catalog.int4pl)"),
                List.of("CREATE TYPE own_routines_off.mood AS ENUM ('happy', 'sad')",
                        "CREATE CAST (own_routines_off.mood AS text) WITH INOUT"))) {
            assertThat(ask(ddl.toArray(String[]::new))).as("%s", ddl).isEqualTo(new Answer(false, false));
        }
    }

    @Test
    void everyRoutinePostgresqlItselfDefinesHasAnOidBelowTheBound() throws SQLException {
        // the premise of the bounds, on the server at hand: nothing numbered below them lies outside pg_catalog
        // (initdb's SQL scripts number their objects from 12,000 on, in information_schema and pg_catalog,
        // which the test leaves out by name anyway)
        DataSource ds = DatabaseServer.postgres().require().adminDataSource();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM pg_catalog.pg_proc WHERE oid < 10000 "
                        + "AND pronamespace <> 'pg_catalog'::pg_catalog.regnamespace), (SELECT count(*) FROM "
                        + "pg_catalog.pg_operator WHERE oid < 10000 AND oprnamespace <> "
                        + "'pg_catalog'::pg_catalog.regnamespace)")) {
            rs.next();
            assertThat(rs.getLong(1)).as("routines below 10,000 outside pg_catalog").isZero();
            assertThat(rs.getLong(2)).as("operators below 10,000 outside pg_catalog").isZero();
        }
    }
}
