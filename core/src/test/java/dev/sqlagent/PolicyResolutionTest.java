package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.PolicyResolutionException;
import dev.sqlagent.guard.PolicyResolutionException.Kind;
import dev.sqlagent.guard.PolicyResolutionException.Unresolved;
import dev.sqlagent.metrics.MetricTool;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * The policy is closed-world too: where the agent can read the catalog, every allowed table, denied column,
 * row filter and metric tool's table must name something the database has, by the engine's identity rules,
 * or building fails naming each with the nearest real names. A misspelt denial never leaves the column open.
 */
class PolicyResolutionTest {

    private final CompanyDatabase db = CompanyDatabase.create();

    private SqlAgent.Builder agent(GuardPolicy policy) {
        return SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(db.analyst()).policy(policy);
    }

    private static List<Unresolved> unresolved(SqlAgent.Builder b) {
        try {
            b.build().close();
        } catch (PolicyResolutionException e) {
            return e.unresolved();
        }
        throw new AssertionError("the build did not fail");
    }

    @Test
    void aMisspeltDenialFailsTheBuildNamingTheRealColumn() {
        GuardPolicy policy = GuardPolicy.builder().allowTables(CompanyDatabase.ALLOWED_TABLES)
                .denyColumn("users", "emial").build();

        assertThat(unresolved(agent(policy))).containsExactly(
                new Unresolved(Kind.DENIED_COLUMN, "users.emial", List.of("EMAIL")));
        assertThatThrownBy(() -> agent(policy).build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("denied column users.emial (nearest: EMAIL)");
        // spelt right, it builds
        agent(GuardPolicy.builder().allowTables(CompanyDatabase.ALLOWED_TABLES).denyColumn("users", "EMAIL").build())
                .build().close();
    }

    @Test
    void everyUnresolvedNameIsNamedAtOnceWithTheNearestRealOnes() {
        GuardPolicy policy = GuardPolicy.builder().allowTables("employes", "orders", "users")
                .denyColumn("emp", "salary").denyColumn("orders", "amout")
                .rowFilter("orders", "employe_id", 3).build();

        assertThat(unresolved(agent(policy))).containsExactlyInAnyOrder(
                new Unresolved(Kind.ALLOWED_TABLE, "employes", List.of("employees")),
                new Unresolved(Kind.DENIED_COLUMN_TABLE, "emp", List.of()),
                new Unresolved(Kind.DENIED_COLUMN, "orders.amout", List.of("AMOUNT")),
                new Unresolved(Kind.ROW_FILTER_COLUMN, "orders.employe_id", List.of("EMPLOYEE_ID")));
    }

    @Test
    void aMetricToolOverAMissingTableIsNamed() {
        MetricTool tool = MetricTool.builder("paid").description("paid orders")
                .sql("SELECT COUNT(*) AS n FROM order_lines WHERE status = :status")
                .parameter("status", MetricTool.Type.STRING, "a status").build();
        GuardPolicy policy = GuardPolicy.allowingTables("orders", "order_lines");

        assertThat(unresolved(agent(policy).metricTool(tool))).containsExactly(
                new Unresolved(Kind.ALLOWED_TABLE, "order_lines", List.of("ORDERS")),
                new Unresolved(Kind.METRIC_TABLE, "paid: order_lines", List.of("ORDERS")));
        // spelt as the database has it, the metric builds
        agent(GuardPolicy.allowingTables("orders")).metricTool(MetricTool.builder("paid").description("paid orders")
                .sql("SELECT COUNT(*) AS n FROM orders WHERE status = :status")
                .parameter("status", MetricTool.Type.STRING, "a status").build()).build().close();
    }

    @Test
    void aHostsOwnSchemaIsTheCatalogWithACustomExecutor() {
        SchemaCatalog schema = SchemaCatalog.of(List.of(new SchemaCatalog.Table("staff",
                List.of(new SchemaCatalog.Column("id", "INTEGER", false, ""),
                        new SchemaCatalog.Column("salary", "INTEGER", false, "")), List.of("id"), List.of(), "")));
        SqlAgent.Builder b = SqlAgent.builder().llm(ScriptedLlm.create()).dialect(Dialect.H2).schema(schema)
                .executor(sql -> {
                    throw new UnsupportedOperationException();
                });

        assertThat(unresolved(b.policy(GuardPolicy.builder().allowTables("staff").denyColumn("staff", "salry")
                .build()))).containsExactly(new Unresolved(Kind.DENIED_COLUMN, "staff.salry", List.of("salary")));
        b.policy(GuardPolicy.builder().allowTables("staff").denyColumn("staff", "salary").build()).build().close();
    }

    /** A host's empty schema is no catalog: the guard alone decides, which the build logs once. */
    @Test
    void anEmptyHostSchemaResolvesNothing() {
        SqlAgent.builder().llm(ScriptedLlm.create()).dialect(Dialect.H2).schema(SchemaCatalog.of(List.of()))
                .executor(sql -> {
                    throw new UnsupportedOperationException();
                }).policy(GuardPolicy.builder().allowTables("x").denyColumn("x", "y").build()).build().close();
    }

    /** H2 stores unquoted names upper case and quoted ones as written: only what the guard would match resolves. */
    @Test
    void namesResolveByTheEnginesIdentityRulesNotByString() throws SQLException {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:policy-" + java.util.UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE plain (id INT, secret INT)");
            s.execute("CREATE TABLE \"Mixed\" (id INT, \"Secret\" INT)");
        }
        SqlAgent.Builder b = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(h2);

        b.policy(GuardPolicy.builder().allowTables("PLAIN").denyColumn("Plain", "SECRET").build()).build().close();
        // "Mixed" is a different table from mixed on H2: a policy naming mixed would allow and deny nothing
        assertThat(unresolved(b.policy(GuardPolicy.builder().allowTables("plain", "mixed").build())))
                .containsExactly(new Unresolved(Kind.ALLOWED_TABLE, "mixed", List.of("Mixed")));
    }

    /** SQLite folds every name, quoted or not: the same spellings resolve there. */
    @Test
    void onSqliteAQuotedMixedCaseTableIsTheSameName(@TempDir Path dir) throws Exception {
        SQLiteDataSource sqlite = new SQLiteDataSource();
        sqlite.setUrl("jdbc:sqlite:" + Files.createFile(dir.resolve("p.db")));
        try (Connection c = sqlite.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE \"Mixed\" (id INT, \"Secret\" INT)");
        }
        SqlAgent.Builder b = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(sqlite);

        b.policy(GuardPolicy.builder().allowTables("mixed").denyColumn("mixed", "secret").build()).build().close();
        assertThat(unresolved(b.policy(GuardPolicy.builder().allowTables("mixed").denyColumn("mixed", "secrte")
                .build()))).containsExactly(new Unresolved(Kind.DENIED_COLUMN, "mixed.secrte", List.of("Secret")));
    }

    /**
     * When the catalog cannot be read at build, that is said once and the names are resolved when it is
     * first read: a question fails while one does not resolve, and never reaches the model.
     */
    @Test
    void aCatalogUnreadableAtBuildIsCheckedOnTheFirstQuestion() {
        AtomicBoolean down = new AtomicBoolean(true);
        DataSource flaky = new FlakyDataSource(db.analyst(), down);
        ScriptedLlm llm = ScriptedLlm.create();
        GuardPolicy policy = GuardPolicy.builder().allowTables(CompanyDatabase.ALLOWED_TABLES)
                .denyColumn("users", "emial").build();
        try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(flaky).dialect(Dialect.H2).policy(policy)
                .build()) {
            down.set(false);
            AgentResult r = agent.ask("Which emails do users have?");

            assertThat(r.status()).isEqualTo(AgentResult.Status.FAILED);
            assertThat(((AgentResult.Failed) r).message()).contains("users.emial", "EMAIL");
            assertThat(llm.callCount()).isZero();
        }
    }

    private static final class FlakyDataSource implements DataSource {
        private final DataSource real;
        private final AtomicBoolean down;

        FlakyDataSource(DataSource real, AtomicBoolean down) {
            this.real = real;
            this.down = down;
        }

        @Override
        public Connection getConnection() throws SQLException {
            if (down.get()) {
                throw new SQLException("connection refused", "08001");
            }
            return real.getConnection();
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public java.io.PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(java.io.PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public java.util.logging.Logger getParentLogger() {
            return java.util.logging.Logger.getLogger("flaky");
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
