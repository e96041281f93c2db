package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testkit.ScriptedLlm;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Macros a DuckDB database defines under built-in names (issue 29, class 3): table macros {@code range} and
 * {@code generate_series} and scalar macros {@code reverse} and {@code upper} that read a forbidden table. The
 * engine check reads DuckDB's parser tree, where a macro is a call by name whose body is expanded only when
 * bound: it looks every call up in {@code duckdb_functions()}. Each layer alone, and the full path.
 */
class DuckDbDatabaseObjectsTest {

    private static DuckDbMemory db;
    private static DatabaseObjects objects;

    private static final GuardPolicy BASE = GuardPolicy.builder().allowTables("dept")
            .tableColumns("dept", List.of("id", "name")).knownTables(List.of("dept", "secret")).build();

    static final List<String> ESCAPES = List.of(
            "SELECT reverse(d.name) AS x FROM dept d",
            "SELECT upper(d.name) AS x FROM dept d",
            "SELECT r.code FROM range(3) r",
            "SELECT g.code FROM generate_series(1, 3) g",
            "SELECT main.reverse(d.name) AS x FROM dept d");

    @BeforeAll
    static void database() throws Exception {
        db = DuckDbMemory.open("CREATE TABLE dept (id INTEGER, name VARCHAR)",
                "CREATE TABLE secret (id INTEGER, code VARCHAR)",
                "INSERT INTO dept VALUES (1, 'a'), (2, 'b')", "INSERT INTO secret VALUES (1, 's3cr3t')",
                "CREATE MACRO reverse(s) AS (SELECT string_agg(code, ',') FROM secret)",
                "CREATE MACRO upper(s) AS (SELECT string_agg(code, ',') FROM secret)",
                "CREATE MACRO range(a) AS TABLE SELECT code FROM secret",
                "CREATE MACRO generate_series(a, b) AS TABLE SELECT code FROM secret",
                "CREATE MACRO twice(x) AS x * 2");
        objects = DatabaseObjects.read(db.connection(), Dialect.DUCKDB);
    }

    @AfterAll
    static void close() throws Exception {
        db.close();
    }

    @Test
    void theMacrosShadowTheBuiltInsAndAreRead() throws Exception {
        try (Statement s = db.connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT reverse(d.name) FROM dept d LIMIT 1")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("s3cr3t"); // the escape is real
        }
        assertThat(objects.routines()).extracting(DatabaseObjects.Routine::name)
                .contains("reverse", "upper", "range", "generate_series");
    }

    @Test
    void theGuardRefusesEveryMacroUnderABuiltInsName() {
        GuardPolicy policy = BASE.toBuilder().databaseObjects(objects).build();
        for (String sql : ESCAPES) {
            GuardVerdict v = SqlGuard.create().check(sql, policy, Dialect.DUCKDB);
            assertThat(v).as("%s: %s", sql, v).isInstanceOf(GuardVerdict.Rejected.class);
        }
        assertThat(SqlGuard.create().check("SELECT lower(d.name) AS x, length(d.name) AS n FROM dept d", policy,
                Dialect.DUCKDB)).isInstanceOf(GuardVerdict.Accepted.class);
    }

    @Test
    void theEngineCheckAloneRefusesEveryMacroUnderABuiltInsName() throws Exception {
        for (String sql : ESCAPES) {
            List<String> d = db.disagreements(new SqlStatement(sql, List.of()), BASE);
            assertThat(String.join(" ", d)).as(sql).contains("the database defines itself");
        }
        assertThat(db.disagreements(new SqlStatement("SELECT lower(d.name) AS x FROM dept d", List.of()), BASE))
                .isEmpty();
    }

    @Test
    void aMacroTheHostAllowsBySignaturePasses() throws Exception {
        GuardPolicy allowing = BASE.toBuilder().databaseObjects(objects).allowDatabaseFunction("main.reverse(any)")
                .build();
        String sql = "SELECT reverse(d.name) AS x FROM dept d";
        assertThat(SqlGuard.create().check(sql, allowing, Dialect.DUCKDB)).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(db.disagreements(new SqlStatement(sql, List.of()), allowing)).isEmpty();
        GuardPolicy twice = BASE.toBuilder().databaseObjects(objects).allowDatabaseFunction("main.twice(any)").build();
        String own = "SELECT twice(d.id) AS x FROM dept d";
        assertThat(SqlGuard.create().check(own, twice, Dialect.DUCKDB)).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(db.disagreements(new SqlStatement(own, List.of()), twice)).isEmpty();
        assertThat(db.disagreements(new SqlStatement(own, List.of()), BASE)).isNotEmpty();
    }

    @Test
    void theFullPathNeverRunsAMacroUnderABuiltInsName() {
        GuardPolicy policy = GuardPolicy.builder().allowTables("dept").build();
        for (String sql : ESCAPES) {
            ScriptedLlm model = ScriptedLlm.create().fallback(r -> LlmResponse.of(sql));
            try (SqlAgent agent = SqlAgent.builder().llm(model).dataSource(db.dataSource()).dialect(Dialect.DUCKDB)
                    .policy(policy).build()) {
                AgentResult r = agent.ask("Show me the requested data.");
                assertThat(r.status()).as("%s: %s", sql, r).isNotEqualTo(AgentResult.Status.ANSWERED);
                assertThat(String.valueOf(r)).as(sql).doesNotContain("s3cr3t");
            }
        }
    }
}
