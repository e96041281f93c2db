package dev.sqlagent.guard;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import dev.sqlagent.testkit.ScriptedLlm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Runs in a child JVM with a small heap ({@link ResourceBombTest}): every class of resource bomb through
 * the full default path (guard, engine check, execution) of an {@link SqlAgent} on the in-process engines,
 * H2 and SQLite, with a scripted model that writes the bomb, and the engine-level caps through the executor
 * alone on SQLite. Prints one line per bomb ({@code BOMB <engine> <status> <category> :: sql}) and
 * {@code DONE} at the end; the JVM runs with {@code -XX:+ExitOnOutOfMemoryError}, so an out-of-memory error
 * anywhere, even one an engine catches, ends it before {@code DONE}.
 */
public final class ResourceBombProbe {

    /** Bombs for both engines, as a model would write them (table {@code t(a)} of 3000 rows). */
    static final List<String> COMMON = List.of(
            "SELECT repeat('x', 1000000000) FROM t",
            "SELECT repeat(repeat('x', 100000), 100000) FROM t",
            "SELECT lpad('x', 2000000000, 'y') FROM t",
            "SELECT rpad(a, 1000000000, 'y') FROM t",
            "SELECT repeat(a, CAST(a AS INTEGER) * 100000) FROM t",
            "SELECT repeat('x', mod(CAST(a AS INTEGER) + 1000000000, 2000000000)) FROM t",
            "SELECT repeat('x', (CAST(a AS INTEGER) + 1000000000) % 2000000000) FROM t",
            "SELECT replace(replace(replace(replace(repeat('a', 5000), 'a', 'aaaaaaaaaa'), 'a', 'aaaaaaaaaa'), 'a', "
                    + "'aaaaaaaaaa'), 'a', 'aaaaaaaaaa') FROM t",
            "WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' FROM t WHERE a = '1' UNION ALL SELECT n + 1, s || s FROM r "
                    + "WHERE n < 40) SELECT max(length(s)) FROM r",
            "WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' FROM t WHERE a = '1' UNION ALL SELECT n + 1, s || s FROM r "
                    + "WHERE n < 23) SELECT r.s FROM t, r WHERE r.n = 23",
            "WITH RECURSIVE r(n) AS (SELECT 1 FROM t WHERE a = '1' UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r");

    static final List<String> SQLITE = List.of(
            "SELECT zeroblob(2000000000) FROM t",
            "SELECT randomblob(1000000000) FROM t",
            "SELECT printf('%.*c', 1000000000, 'x') FROM t",
            "SELECT printf('%1000000000d', 1) FROM t",
            "SELECT length(group_concat(x.a || y.a || z.a)) FROM t x, t y, t z",
            "SELECT length(string_agg(x.a || repeat('y', 100), ',')) FROM t x, t y",
            "SELECT length(json_group_array(x.a || y.a)) FROM t x, t y, t z",
            "SELECT replicate('x', 1000000000) FROM t",
            "SELECT hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(hex(a)))))))))))))))))"
                    + ")))) FROM t");

    static final List<String> H2 = List.of(
            "SELECT SPACE(1000000000) FROM t",
            "SELECT SECURE_RAND(1000000000) FROM t",
            "SELECT LENGTH(LISTAGG(x.a || y.a || REPEAT('y', 100), ',')) FROM t x, t y",
            "SELECT LENGTH(STRING_AGG(x.a || y.a, ',')) FROM t x, t y, t z",
            "SELECT CARDINALITY(ARRAY_AGG(x.a || y.a)) FROM t x, t y, t z",
            "SELECT LENGTH(JSON_ARRAYAGG(x.a || y.a)) FROM t x, t y, t z",
            "SELECT RAWTOHEX(RAWTOHEX(RAWTOHEX(RAWTOHEX(RAWTOHEX(RAWTOHEX(RAWTOHEX(RAWTOHEX(RAWTOHEX(RAWTOHEX(RAWTOHEX("
                    + "RAWTOHEX(RAWTOHEX(RAWTOHEX(a)))))))))))))) FROM t",
            "WITH RECURSIVE r(n, s) AS (SELECT 1, a FROM t WHERE a = '1' UNION ALL SELECT n + 1, CONCAT(s, s) FROM r "
                    + "WHERE n < 40) SELECT max(length(s)) FROM r");

    /** Run through the executor alone (no guard): SQLite's own caps must hold. */
    static final List<String> SQLITE_UNGUARDED = List.of(
            "SELECT zeroblob(2000000000)",
            "SELECT printf('%.*c', 1000000000, 'x')",
            "SELECT length(group_concat(x.a || y.a || z.a)) FROM t x, t y, t z",
            "WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, s || s FROM r WHERE n < 40) "
                    + "SELECT max(length(s)) FROM r");

    private ResourceBombProbe() {
    }

    /**
     * Runs the bombs.
     *
     * @param args none
     * @throws Exception on a setup failure
     */
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("bombs");
        String sqlite = "jdbc:sqlite:" + dir.resolve("bombs.db");
        String h2 = "jdbc:h2:mem:bombs;DB_CLOSE_DELAY=-1";
        for (String url : List.of(sqlite, h2)) {
            try (Connection c = new UrlDataSource(url, "", "").getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (a VARCHAR(20))");
                c.setAutoCommit(false);
                try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?)")) {
                    for (int i = 1; i <= 3000; i++) {
                        p.setString(1, Integer.toString(i));
                        p.addBatch();
                    }
                    p.executeBatch();
                }
                c.commit();
            }
        }
        Map<Dialect, String> urls = Map.of(Dialect.SQLITE, sqlite, Dialect.H2, h2);
        for (Dialect d : List.of(Dialect.SQLITE, Dialect.H2)) {
            DataSource ds = new UrlDataSource(urls.get(d), "", "");
            List<String> bombs = new java.util.ArrayList<>(COMMON);
            bombs.addAll(d == Dialect.SQLITE ? SQLITE : H2);
            for (String sql : bombs) {
                ScriptedLlm llm = ScriptedLlm.create().fallback(r -> new LlmResponse(List.of(sql),
                        new TokenUsage(10, 5), "bomb"));
                try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(ds).dialect(d)
                        .policy(GuardPolicy.builder().allowTables("t").knownTables(List.of("t")).build())
                        .queryTimeout(Duration.ofSeconds(3)).build()) {
                    AgentResult result = agent.ask("How big can it get?");
                    String category = result instanceof AgentResult.Failed
                            ? ((AgentResult.Failed) result).kind() + "/"
                            + ((AgentResult.Failed) result).errorCategory().map(Enum::name).orElse("-")
                            : result instanceof AgentResult.Rejected
                            ? ((AgentResult.Rejected) result).violations().get(0).type().name() : "-";
                    System.out.println("BOMB " + d + " " + result.status() + " " + category + " :: " + sql);
                }
            }
        }
        JdbcSqlExecutor executor = JdbcSqlExecutor.builder(new UrlDataSource(sqlite, "", ""))
                .queryTimeout(Duration.ofSeconds(3)).build();
        for (String sql : SQLITE_UNGUARDED) {
            ExecutionOutcome out = executor.execute(SqlStatement.of(sql));
            String what = out instanceof ExecutionOutcome.Failure
                    ? "FAILED " + ((ExecutionOutcome.Failure) out).error().category() : "ANSWERED -";
            System.out.println("BOMB SQLITE-EXECUTOR " + what + " :: " + sql);
        }
        System.out.println("DONE");
    }
}
