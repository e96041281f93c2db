package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.testing.DatabaseServer;
import dev.sqlagent.testkit.ScriptedLlm;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * The closed world through {@code ask}, on real engines: the agent gives the guard the columns of every
 * allowed table from its catalog, denies a generated column of a table with denied columns, and writes
 * row filters that a login granted only the allowed columns can run.
 */
class ClosedWorldAgentTest {

    private static DataSource h2(String name, String... ddl) throws SQLException {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            for (String d : ddl) {
                s.execute(d);
            }
        }
        return ds;
    }

    @Test
    void aGeneratedColumnOfATableWithDeniedColumnsIsDeniedAndHidden() throws Exception {
        DataSource db = h2("cw_generated", "CREATE TABLE pay (id INT PRIMARY KEY, name VARCHAR(20), "
                + "salary INT, twice INT GENERATED ALWAYS AS (salary * 2))",
                "INSERT INTO pay (id, name, salary) VALUES (1, 'a', 100)");
        ScriptedLlm llm = ScriptedLlm.create().enqueue("SELECT twice FROM pay");
        try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db).dialect(Dialect.H2)
                .policy(GuardPolicy.builder().allowTables("pay").denyColumn("pay", "salary").build()).build()) {
            AgentResult r = agent.ask("Doubled pay of each person");
            assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
            assertThat(((AgentResult.Rejected) r).violations()).anyMatch(v -> v.type() == ViolationType.COLUMN_DENIED);
            assertThat(llm.requests().get(0).text()).doesNotContainIgnoringCase("twice").containsIgnoringCase("name");
        }
    }

    @Test
    void anInventedColumnIsCorrectedWithoutRunning() throws Exception {
        DataSource db = h2("cw_invented", "CREATE TABLE pay (id INT PRIMARY KEY, name VARCHAR(20))",
                "INSERT INTO pay VALUES (1, 'a')");
        ScriptedLlm llm = ScriptedLlm.create().enqueue("SELECT fullname FROM pay")
                .enqueue("{\"reason\": \"the column is name\", \"sql\": \"SELECT name FROM pay\"}");
        try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db).dialect(Dialect.H2)
                .policy(GuardPolicy.allowingTables("pay")).build()) {
            AgentResult r = agent.ask("Names");
            assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(r.trace().executions()).hasSize(1);
            assertThat(r.trace().correction().orElseThrow().originalError()).isEqualTo("no such column: fullname");
            assertThat(r.trace().correction().orElseThrow().errorCategory()).isEqualTo("COLUMN_NOT_FOUND");
        }
    }

    @Test
    void aRowFilterRunsUnderALoginGrantedOnlyTheAllowedColumns() throws Exception {
        DatabaseServer pg = DatabaseServer.postgres().require();
        try (Connection c = pg.adminDataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS cw_filter CASCADE");
            s.execute("CREATE SCHEMA cw_filter");
            s.execute("CREATE TABLE cw_filter.orders (id INT PRIMARY KEY, region TEXT, amount INT, secret TEXT)");
            s.execute("INSERT INTO cw_filter.orders VALUES (1, 'north', 10, 's1'), (2, 'south', 20, 's2'), "
                    + "(3, 'north', 30, 's3')");
            s.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'cw_filter_reader') THEN "
                    + "CREATE ROLE cw_filter_reader LOGIN PASSWORD 'cw'; END IF; END $$");
            s.execute("GRANT USAGE ON SCHEMA cw_filter TO cw_filter_reader");
            s.execute("GRANT SELECT (id, region, amount) ON cw_filter.orders TO cw_filter_reader");
        }
        String url = pg.url() + (pg.url().contains("?") ? "&" : "?") + "currentSchema=cw_filter";
        DataSource reader = new UrlDataSource(url, "cw_filter_reader", "cw");
        GuardPolicy policy = GuardPolicy.builder().allowTables("orders").denyColumn("orders", "secret")
                .rowFilter("orders", "region", "north").build();
        for (String sql : List.of("SELECT count(*) FROM orders", "SELECT sum(amount) FROM orders WHERE id > 0",
                "SELECT o.id, o.amount FROM orders o ORDER BY o.id")) {
            ScriptedLlm llm = ScriptedLlm.create().enqueue(sql);
            try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(reader).dialect(Dialect.POSTGRESQL)
                    .policy(policy).build()) {
                AgentResult r = agent.ask("Orders");
                assertThat(r.status()).as(sql + " -> " + r).isEqualTo(AgentResult.Status.ANSWERED);
                assertThat(((AgentResult.Answered) r).table().rowCount()).isPositive();
            }
        }
    }

    @Test
    void aFunctionSqliteLacksIsCorrectedWithItsEquivalentWithoutRunning(@org.junit.jupiter.api.io.TempDir
                                                                         java.nio.file.Path dir) throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("hires.db");
        try (Connection c = java.sql.DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE hires (id INTEGER PRIMARY KEY, hired TEXT)");
            s.execute("INSERT INTO hires VALUES (1, '2020-05-01'), (2, '2021-06-01')");
        }
        ScriptedLlm llm = ScriptedLlm.create().enqueue("SELECT YEAR(hired) FROM hires")
                .enqueue("{\"reason\": \"SQLite has strftime\", \"sql\": \"SELECT strftime('%Y', hired) FROM hires\"}");
        try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(new UrlDataSource(url, null, null))
                .dialect(Dialect.SQLITE).policy(GuardPolicy.allowingTables("hires")).build()) {
            AgentResult r = agent.ask("Years of hire");
            assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(r.trace().executions()).hasSize(1);
            assertThat(r.trace().correction().orElseThrow().errorCategory()).isEqualTo("FUNCTION_NOT_FOUND");
            assertThat(r.trace().correction().orElseThrow().originalError()).startsWith("no such function: YEAR")
                    .contains("strftime");
        }
    }
}
