package dev.sqlagent.guard.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.DatabaseObjects;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testing.DatabaseServer;
import dev.sqlagent.testkit.ScriptedLlm;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Objects a PostgreSQL database defines under built-in names (issue 29, classes 3 and 4): a schema function
 * {@code initcap(integer)} that wins the overload resolution of {@code initcap(id)}, a user operator
 * {@code ||(integer, integer)}, a user aggregate {@code sum(text)}, a user cast, a function in a schema put before
 * {@code pg_catalog} in the search path; and the types of casts ({@code _regclass}, a table's row type, a domain
 * over a catalog type). Each layer is tested alone (the guard with the database's objects read as
 * {@code SqlAgent} reads them; the engine check with the guard out of the way) and the full path.
 */
class PgDatabaseObjectsTest {

    private static final String SCHEMA = "objects_pg";
    private static DataSource ds;
    private static DatabaseObjects objects;

    /** dept may be read; secret and audit_log may not; people has a denied column. */
    private static final GuardPolicy BASE = GuardPolicy.builder().allowTables("dept", "people")
            .denyColumn("people", "salary").knownTables(List.of("dept", "people", "secret", "audit_log", "point"))
            .tableColumns("dept", List.of("id", "name")).tableColumns("people", List.of("id", "name", "salary"))
            .build();

    /** Escapes that read the secret through an object of the database under a built-in's name. */
    static final List<String> ROUTINE_ESCAPES = List.of(
            "SELECT initcap(d.id) AS x FROM dept d",
            "SELECT d.id || d.id AS x FROM dept d",
            "SELECT sum(d.name) AS x FROM dept d",
            "SELECT 'sad'::mood::integer AS x FROM dept d",
            "SELECT d.id::checked AS x FROM dept d",
            "SELECT d.id::checked_too AS x FROM dept d",
            "SELECT objects_pg.initcap(d.id) AS x FROM dept d",
            // an overload a superuser put in pg_catalog itself: the database's own by its OID, not its schema
            "SELECT reverse(d.id) AS x FROM dept d",
            "SELECT pg_catalog.reverse(d.id) AS x FROM dept d");

    /** Schema probes through types: a catalog type's array spelling, a forbidden table's row type. */
    static final List<String> TYPE_ESCAPES = List.of(
            "SELECT '{secret}'::_regclass AS x FROM dept d",
            "SELECT '{secret}'::regclass[] AS x FROM dept d",
            "SELECT 'secret'::rc_too AS x FROM dept d",
            "SELECT 'secret'::pg_catalog.rc_too AS x FROM dept d",
            "SELECT 'secret'::rc AS x FROM dept d",
            "SELECT jsonb_populate_record(NULL::secret, '{}') AS x FROM dept d",
            "SELECT NULL::audit_log AS x FROM dept d",
            "SELECT NULL::objects_pg.audit_log AS x FROM dept d",
            "SELECT NULL::\"secret\" AS x FROM dept d",
            "SELECT NULL::_secret AS x FROM dept d",
            "SELECT NULL::secret[] AS x FROM dept d",
            "SELECT CAST(NULL AS secret) AS x FROM dept d",
            "SELECT jsonb_populate_record(NULL::people, '{}') AS x FROM dept d",
            "SELECT to_json(ROW(1, 'x')::secret) AS x FROM dept d",
            "SELECT 'secret'::pg_catalog.regclass AS x FROM dept d",
            "SELECT '{secret}'::\"_regclass\" AS x FROM dept d",
            "SELECT 'objects_pg'::regnamespace AS x FROM dept d",
            "SELECT r.* FROM jsonb_to_record('{\"id\": 1}') AS r(id int, s secret)");

    /** Legitimate casts and calls in the same database. */
    static final List<String> LEGITIMATE = List.of(
            "SELECT upper(d.name) AS x, d.id::text AS y, CAST(d.id AS bigint) AS z FROM dept d",
            "SELECT NULL::dept AS x FROM dept d",
            "SELECT 'happy'::mood AS x, d.name::varchar(10) AS y FROM dept d WHERE d.id = 1",
            "SELECT jsonb_populate_record(NULL::dept, '{\"id\": 3}') AS x FROM dept d",
            "SELECT d.name::text AS x, '2024-01-02'::date AS y, '(1,2)'::point AS z FROM dept d");

    @BeforeAll
    static void database() throws Exception {
        // a database of its own: functions and casts of a database apply to every schema's statements
        DatabaseServer server = DatabaseServer.postgres().require();
        try (Connection c = server.adminDataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + SCHEMA + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + SCHEMA);
        }
        String url = server.url();
        int slash = url.indexOf('/', url.indexOf("//") + 2);
        int query = url.indexOf('?');
        url = url.substring(0, slash) + "/" + SCHEMA + (query >= 0 ? url.substring(query) : "")
                + (query >= 0 ? "&" : "?") + "currentSchema=" + SCHEMA;
        ds = new UrlDataSource(url, System.getenv().getOrDefault("SQLAGENT_PG_USER", "postgres"),
                System.getenv().getOrDefault("SQLAGENT_PG_PASSWORD", ""));
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + SCHEMA);
            s.execute("SET search_path = " + SCHEMA);
            s.execute("CREATE TABLE dept(id int, name text)");
            s.execute("CREATE TABLE people(id int, name text, salary int)");
            s.execute("CREATE TABLE secret(id int, code text)");
            s.execute("CREATE TABLE audit_log(id int, who text)");
            s.execute("CREATE TABLE point(id int, secret_code text)"); // a table named like a built-in type
            s.execute("INSERT INTO dept VALUES (1, 'a'), (2, 'b')");
            s.execute("INSERT INTO secret VALUES (1, 's3cr3t')");
            String leak = " LANGUAGE sql AS $$ SELECT string_agg(code, ',') FROM " + SCHEMA + ".secret $$";
            s.execute("CREATE FUNCTION initcap(integer) RETURNS text" + leak);
            s.execute("CREATE FUNCTION cat2(int, int) RETURNS text" + leak);
            s.execute("CREATE OPERATOR || (LEFTARG = int, RIGHTARG = int, FUNCTION = cat2)");
            s.execute("CREATE FUNCTION acc(text, text) RETURNS text LANGUAGE sql AS $$ SELECT (SELECT "
                    + "string_agg(code, ',') FROM " + SCHEMA + ".secret) $$");
            s.execute("CREATE AGGREGATE sum(text) (SFUNC = acc, STYPE = text)");
            s.execute("CREATE TYPE mood AS ENUM ('happy', 'sad')");
            s.execute("CREATE FUNCTION mood_int(mood) RETURNS integer LANGUAGE sql AS $$ SELECT (SELECT "
                    + "count(*)::int FROM " + SCHEMA + ".secret) $$");
            s.execute("CREATE CAST (mood AS integer) WITH FUNCTION mood_int(mood)");
            s.execute("CREATE DOMAIN rc AS regclass");
            s.execute("CREATE FUNCTION guard_ok(int) RETURNS boolean LANGUAGE sql AS $$ SELECT (SELECT count(*) > 0 "
                    + "FROM " + SCHEMA + ".secret) $$");
            s.execute("CREATE DOMAIN checked AS int CHECK (guard_ok(VALUE))");
            s.execute("CREATE FUNCTION lower(text) RETURNS text" + leak);
            s.execute("CREATE FUNCTION pg_catalog.reverse(integer) RETURNS text LANGUAGE plpgsql AS $$ BEGIN "
                    + "RETURN (SELECT string_agg(code, ',') FROM " + SCHEMA + ".secret); END $$");
            s.execute("CREATE FUNCTION pg_catalog.checked_ok(int) RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN "
                    + "RETURN (SELECT count(*) > 0 FROM " + SCHEMA + ".secret); END $$");
            s.execute("CREATE DOMAIN checked_too AS int CHECK (pg_catalog.checked_ok(VALUE))");
            s.execute("CREATE DOMAIN pg_catalog.rc_too AS regclass"); // a superuser's domain in pg_catalog
            s.execute("CREATE SCHEMA elsewhere");
            s.execute("CREATE FUNCTION elsewhere.upper(text) RETURNS text" + leak);
            s.execute("CREATE OPERATOR elsewhere.+ (LEFTARG = int, RIGHTARG = int, FUNCTION = cat2)");
            objects = DatabaseObjects.read(c, Dialect.POSTGRESQL);
        }
    }

    @AfterAll
    static void drop() throws Exception {
        try (Connection c = DatabaseServer.postgres().adminDataSource().getConnection();
             Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + SCHEMA + " WITH (FORCE)");
        }
    }

    private static GuardPolicy completed() {
        return BASE.toBuilder().databaseObjects(objects).build();
    }

    private static EngineVerdict engine(GuardPolicy policy, String sql) {
        return EngineCheck.create(ds, Dialect.POSTGRESQL).check(new GuardVerdict.Accepted(sql,
                new SqlStatement(sql, List.of()), Set.of("dept"), Set.of("dept.id")), policy);
    }

    @Test
    void theDatabasesOwnObjectsAreRead() {
        assertThat(objects.routines()).extracting(DatabaseObjects.Routine::signature)
                .contains("objects_pg.initcap(integer)", "objects_pg.||(integer,integer)", "objects_pg.sum(text)",
                        "objects_pg.lower(text)", "pg_catalog.reverse(integer)");
        assertThat(objects.types()).anyMatch(t -> t.name().equals("secret") && "objects_pg.secret".equals(t.relation()));
        assertThat(objects.types()).anyMatch(t -> t.name().equals("rc") && "regclass".equals(t.base()));
    }

    @Test
    void theGuardRefusesEveryEscapeAndAcceptsLegitimateSql() {
        SqlGuard guard = SqlGuard.create();
        for (String sql : concat(ROUTINE_ESCAPES, TYPE_ESCAPES)) {
            GuardVerdict v = guard.check(sql, completed(), Dialect.POSTGRESQL);
            assertThat(v).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
        }
        for (String sql : LEGITIMATE) {
            GuardVerdict v = guard.check(sql, completed(), Dialect.POSTGRESQL);
            assertThat(v).as("%s: %s", sql, v).isInstanceOf(GuardVerdict.Accepted.class);
        }
    }

    @Test
    void theGuardRefusesTypeProbesWithoutTheDatabasesObjects() {
        SqlGuard guard = SqlGuard.create();
        for (String sql : TYPE_ESCAPES) {
            if (sql.contains("::rc") || sql.contains("rc_too")) {
                continue; // a domain is known only from the database's objects
            }
            GuardVerdict v = guard.check(sql, BASE, Dialect.POSTGRESQL);
            assertThat(v).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
        }
    }

    @Test
    void theEngineCheckAloneRefusesEveryEscape() {
        for (String sql : concat(ROUTINE_ESCAPES, TYPE_ESCAPES)) {
            EngineVerdict v = engine(BASE, sql);
            assertThat(v).as("%s: %s", sql, v).isInstanceOf(EngineVerdict.Disagreement.class);
            if (ROUTINE_ESCAPES.contains(sql)) {
                // found by identity, whatever name the plan prints
                assertThat(String.join(" ", ((EngineVerdict.Disagreement) v).reasons())).as(sql)
                        .contains("the database defines itself");
            }
        }
    }

    @Test
    void theEngineCheckConfirmsLegitimateSqlInADatabaseWithItsOwnObjects() {
        for (String sql : LEGITIMATE) {
            EngineVerdict v = engine(BASE, sql);
            assertThat(v).as("%s: %s", sql, v).isInstanceOf(EngineVerdict.Confirmed.class);
        }
    }

    @Test
    void aFunctionInASchemaBeforePgCatalogInTheSearchPathIsRefusedByBothLayers() throws Exception {
        String sql = "SELECT lower(d.name) AS x FROM dept d";
        assertThat(SqlGuard.create().check(sql, completed(), Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Rejected.class);
        try (Connection c = ds.getConnection()) {
            try (Statement s = c.createStatement()) {
                s.execute("SET search_path = " + SCHEMA + ", pg_catalog");
            }
            EngineVerdict v = EngineCheck.create(ds, Dialect.POSTGRESQL).check(c, new GuardVerdict.Accepted(sql,
                    new SqlStatement(sql, List.of()), Set.of("dept"), Set.of("dept.name")), BASE);
            assertThat(v).as("%s", v).isInstanceOf(EngineVerdict.Disagreement.class);
            assertThat(String.join(" ", ((EngineVerdict.Disagreement) v).reasons())).contains("objects_pg.lower(text)");
        }
        // with pg_catalog first (the default), lower binds the built-in: the engine confirms
        assertThat(engine(BASE, sql)).isInstanceOf(EngineVerdict.Confirmed.class);
    }

    @Test
    void anObjectOfASchemaOffTheSearchPathBindsOnlyQualified() {
        // elsewhere.upper(text) and elsewhere.+(int, int): a bare upper(…) and + bind the built-ins
        String bare = "SELECT upper(d.name) AS x, d.id + 1 AS y FROM dept d";
        assertThat(SqlGuard.create().check(bare, completed(), Dialect.POSTGRESQL)).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(engine(BASE, bare)).isInstanceOf(EngineVerdict.Confirmed.class);
        String qualified = "SELECT elsewhere.upper(d.name) AS x FROM dept d";
        assertThat(SqlGuard.create().check(qualified, completed(), Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(engine(BASE, qualified)).isInstanceOf(EngineVerdict.Disagreement.class);
    }

    @Test
    void aDatabaseFunctionTheHostAllowsBySignaturePassesBothLayers() {
        GuardPolicy allowing = completed().toBuilder().allowDatabaseFunction("objects_pg.initcap(integer)",
                "objects_pg.||(integer, integer)").build();
        for (String sql : List.of("SELECT initcap(d.id) AS x FROM dept d", "SELECT d.id || d.id AS x FROM dept d")) {
            GuardVerdict g = SqlGuard.create().check(sql, allowing, Dialect.POSTGRESQL);
            assertThat(g).as("%s: %s", sql, g).isInstanceOf(GuardVerdict.Accepted.class);
            assertThat(engine(allowing, sql)).as(sql).isInstanceOf(EngineVerdict.Confirmed.class);
        }
        // a function of the database's own under a name of its own, allowed by signature
        GuardPolicy cat2 = completed().toBuilder().allowDatabaseFunction("objects_pg.cat2(integer,integer)").build();
        String own = "SELECT cat2(d.id, d.id) AS x FROM dept d";
        assertThat(SqlGuard.create().check(own, cat2, Dialect.POSTGRESQL)).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(engine(cat2, own)).isInstanceOf(EngineVerdict.Confirmed.class);
        assertThat(engine(BASE, own)).isInstanceOf(EngineVerdict.Disagreement.class);
        // allowing one object does not allow another of another name
        assertThat(engine(allowing, "SELECT sum(d.name) AS x FROM dept d")).isInstanceOf(EngineVerdict.Disagreement.class);
    }

    @Test
    void theFullPathNeverRunsAnEscape() {
        GuardPolicy policy = GuardPolicy.builder().allowTables("dept", "people").denyColumn("people", "salary").build();
        for (String sql : concat(ROUTINE_ESCAPES, TYPE_ESCAPES)) {
            ScriptedLlm model = ScriptedLlm.create().fallback(r -> LlmResponse.of(sql));
            try (SqlAgent agent = SqlAgent.builder().llm(model).dataSource(ds).dialect(Dialect.POSTGRESQL)
                    .policy(policy).build()) {
                AgentResult r = agent.ask("Show me the requested data.");
                assertThat(r.status()).as("%s: %s", sql, r).isNotEqualTo(AgentResult.Status.ANSWERED);
                assertThat(String.valueOf(r)).as(sql).doesNotContain("s3cr3t");
            }
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new java.util.ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
