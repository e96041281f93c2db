package dev.sqlagent.guard.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.DatabaseObjects;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testing.DatabaseServer;
import dev.sqlagent.testkit.ScriptedLlm;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The database's own functions on H2 (user aliases, {@code INFORMATION_SCHEMA.ROUTINES}) and MariaDB (stored
 * functions, {@code information_schema.ROUTINES}): read at build, refused by name (a violation, never an invented
 * name to correct) unless the host allows one by signature; a built-in name keeps the built-in on MariaDB, where
 * a stored function of that name is reached only qualified.
 */
class OwnFunctionsH2MariaDbTest {

    private static final GuardPolicy POLICY = GuardPolicy.builder().allowTables("dept")
            .tableColumns("dept", List.of("id", "name")).build();

    private static GuardVerdict guard(String sql, GuardPolicy policy, Dialect d) {
        return SqlGuard.create().check(sql, policy, d);
    }

    @Test
    void h2AliasesAreReadAndRefusedUnlessAllowed() throws Exception {
        DataSource ds = new UrlDataSource("jdbc:h2:mem:objects_h2;DB_CLOSE_DELAY=-1", "sa", "");
        DatabaseObjects objects;
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE dept(id INT, name VARCHAR(20))");
            s.execute("CREATE TABLE secret(id INT, code VARCHAR(20))");
            s.execute("INSERT INTO dept VALUES (1, 'a')");
            s.execute("CREATE ALIAS leak FOR 'java.lang.Math.abs(int)'");
            // H2 refuses an alias under a built-in's name: nothing can shadow one
            assertThatThrownBy(() -> s.execute("CREATE ALIAS upper FOR 'java.lang.Math.abs(int)'"))
                    .isInstanceOf(SQLException.class);
            objects = DatabaseObjects.read(c, Dialect.H2);
        }
        assertThat(objects.routines()).extracting(DatabaseObjects.Routine::signature).contains("public.leak(integer)");
        GuardPolicy completed = POLICY.toBuilder().databaseObjects(objects).build();
        GuardVerdict v = guard("SELECT leak(d.id) AS x FROM dept d", completed, Dialect.H2);
        assertThat(v).isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(((GuardVerdict.Rejected) v).violations()).anyMatch(x -> x.type() == ViolationType.FUNCTION_NOT_ALLOWED);
        assertThat(guard("SELECT leak(d.id) AS x FROM dept d", completed.toBuilder()
                .allowDatabaseFunction("public.leak(integer)").build(), Dialect.H2))
                .isInstanceOf(GuardVerdict.Accepted.class);
        String sql = "SELECT leak(d.id) AS x FROM dept d";
        EngineVerdict e = EngineCheck.create(ds, Dialect.H2).check(new GuardVerdict.Accepted(sql,
                new SqlStatement(sql, List.of()), Set.of("dept"), Set.of("dept.id")), POLICY);
        assertThat(e).as("%s", e).isInstanceOf(EngineVerdict.Disagreement.class);
    }

    @Test
    void mariaDbStoredFunctionsAreReadAndRefusedUnlessAllowed() throws Exception {
        DatabaseServer server = DatabaseServer.mariadb().require();
        DataSource ds = server.scratch("objects_m");
        DatabaseObjects objects;
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS dept, secret");
            s.execute("DROP FUNCTION IF EXISTS leak");
            s.execute("DROP FUNCTION IF EXISTS upper");
            s.execute("CREATE TABLE dept(id INT, name VARCHAR(20))");
            s.execute("CREATE TABLE secret(id INT, code VARCHAR(20))");
            s.execute("INSERT INTO dept VALUES (1, 'a')");
            s.execute("INSERT INTO secret VALUES (1, 's3cr3t')");
            s.execute("CREATE FUNCTION leak(x INT) RETURNS TEXT READS SQL DATA RETURN (SELECT code FROM secret LIMIT 1)");
            s.execute("CREATE FUNCTION upper(x TEXT) RETURNS TEXT READS SQL DATA RETURN (SELECT code FROM secret LIMIT 1)");
            objects = DatabaseObjects.read(c, Dialect.MARIADB);
        }
        try {
            assertThat(objects.routines()).extracting(DatabaseObjects.Routine::signature)
                    .contains("objects_m.leak(int)", "objects_m.upper(text)");
            GuardPolicy completed = POLICY.toBuilder().databaseObjects(objects).build();
            for (String sql : List.of("SELECT leak(d.id) AS x FROM dept d", "SELECT objects_m.leak(d.id) AS x FROM dept d",
                    "SELECT objects_m.upper(d.name) AS x FROM dept d")) {
                GuardVerdict v = guard(sql, completed, Dialect.MARIADB);
                assertThat(v).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
                assertThat(((GuardVerdict.Rejected) v).violations()).as(sql)
                        .anyMatch(x -> x.type() == ViolationType.FUNCTION_NOT_ALLOWED);
            }
            // unqualified, a built-in's name binds the built-in
            assertThat(guard("SELECT upper(d.name) AS x FROM dept d", completed, Dialect.MARIADB))
                    .isInstanceOf(GuardVerdict.Accepted.class);
            for (String sql : List.of("SELECT objects_m.leak(d.id) AS x FROM dept d",
                    "SELECT objects_m.upper(d.name) AS x FROM dept d")) {
                EngineVerdict e = EngineCheck.create(ds, Dialect.MARIADB).check(new GuardVerdict.Accepted(sql,
                        new SqlStatement(sql, List.of()), Set.of("dept"), Set.of("dept.id")), POLICY);
                assertThat(e).as("%s: %s", sql, e).isInstanceOf(EngineVerdict.Disagreement.class);
            }
            GuardPolicy allowing = POLICY.toBuilder().allowDatabaseFunction("objects_m.leak(int)").build();
            String allowed = "SELECT leak(d.id) AS x FROM dept d";
            assertThat(guard(allowed, allowing.toBuilder().databaseObjects(objects).build(), Dialect.MARIADB))
                    .isInstanceOf(GuardVerdict.Accepted.class);
            EngineVerdict ok = EngineCheck.create(ds, Dialect.MARIADB).check(new GuardVerdict.Accepted(allowed,
                    new SqlStatement(allowed, List.of()), Set.of("dept"), Set.of("dept.id")), allowing);
            assertThat(ok).as("%s", ok).isInstanceOf(EngineVerdict.Confirmed.class);
            GuardPolicy full = GuardPolicy.builder().allowTables("dept").build();
            for (String sql : List.of("SELECT leak(d.id) AS x FROM dept d", "SELECT objects_m.upper(d.name) AS x FROM dept d")) {
                try (SqlAgent agent = SqlAgent.builder().llm(ScriptedLlm.create().fallback(r -> LlmResponse.of(sql)))
                        .dataSource(ds).dialect(Dialect.MARIADB).policy(full).build()) {
                    AgentResult r = agent.ask("Show me the requested data.");
                    assertThat(r.status()).as("%s: %s", sql, r).isEqualTo(AgentResult.Status.REJECTED);
                }
            }
        } finally {
            try (Connection c = server.adminDataSource().getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS objects_m");
            }
        }
    }
}
