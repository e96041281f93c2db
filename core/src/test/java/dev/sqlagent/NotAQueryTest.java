package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.ScriptedLlm;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Nothing is laundered: a reply whose statement is not one query (a SELECT wrapped in COPY, after ATTACH,
 * INSTALL or PRAGMA, a file read as a table) is never cleaned into the query inside it, never sent to the
 * correction as a syntax error and never ends as "no SQL": it is a policy violation, REJECTED after one
 * model call and counted, on every path (ask, the caller's SQL, a conversation's turn after the rewriter).
 * Against a real DuckDB, where each of these statements would run.
 */
@ExtendWith(LegalTraceExtension.class)
class NotAQueryTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private Connection keeper;
    private DataSource ds;
    private ScriptedLlm llm;

    @BeforeEach
    void setUp() throws SQLException {
        String url = "jdbc:duckdb:";
        keeper = DriverManager.getConnection(url);
        try (Statement s = keeper.createStatement()) {
            s.execute("CREATE TABLE sales (region VARCHAR, amount INTEGER)");
            s.execute("INSERT INTO sales VALUES ('north', 3), ('south', 4)");
        }
        Connection shared = keeper;
        ds = new SingleConnection(shared, "duckdb-" + DATABASES.incrementAndGet());
        llm = ScriptedLlm.create();
    }

    @AfterEach
    void tearDown() throws SQLException {
        keeper.close();
    }

    private SqlAgent agent(TraceRecorder recorder) {
        return SqlAgent.builder().llm(llm).dataSource(ds).dialect(Dialect.DUCKDB)
                .policy(GuardPolicy.allowingTables("sales")).listener(recorder).caseSinkRetries(false).build();
    }

    private static void assertRefusedOnce(AgentResult r) {
        assertThat(r.status()).as("%s", r).isEqualTo(AgentResult.Status.REJECTED);
        assertThat(((AgentResult.Rejected) r).violations()).extracting(Violation::type)
                .isNotEmpty().allMatch(t -> t == ViolationType.NOT_A_QUERY || t == ViolationType.MULTIPLE_STATEMENTS
                        || t == ViolationType.TABLE_FUNCTION);
        assertThat(r.trace().executions()).isEmpty();
        assertThat(r.trace().correctionCount()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "COPY (SELECT region FROM sales) TO 'out.csv'",
        "```sql\nCOPY (SELECT region FROM sales) TO 'out.csv' (FORMAT csv);\n```",
        "Sure! Run this:\ncopy (select region from sales) to 'out.csv'",
        "ATTACH 'other.db' AS o; SELECT region FROM sales",
        "INSTALL httpfs",
        "INSTALL httpfs;\nSELECT region FROM sales",
        "LOAD httpfs; SELECT region FROM sales",
        "PRAGMA enable_profiling; SELECT region FROM sales",
        "SELECT secret FROM 'data/secret.csv'",
        "SELECT * FROM sales JOIN 'https://example.com/x.parquet' x ON x.region = sales.region",
        "EXPORT DATABASE 'dump'",
        "SET threads = 1; SELECT region FROM sales",
        "{\"sql\": \"COPY (SELECT region FROM sales) TO 'out.csv'\"}",
    })
    void aModelReplyThatIsNotOneQueryIsRejectedAfterOneCall(String reply, TraceRecorder recorder) {
        llm.enqueueFor("refiner", reply);
        try (SqlAgent agent = agent(recorder)) {
            AgentResult r = recorder.track(agent.ask("Which regions sold?"));

            assertRefusedOnce(r);
            assertThat(llm.callCount()).isEqualTo(1);
            assertThat(agent.metrics().rejected()).isEqualTo(1);
            assertThat(agent.metrics().corrections()).isZero();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "COPY (SELECT region FROM sales) TO 'out.csv'",
        "ATTACH 'other.db' AS o; SELECT region FROM sales",
        "INSTALL httpfs",
        "PRAGMA enable_profiling",
        "SELECT secret FROM 'data/secret.csv'",
        "DETACH o",
        "CALL pragma_version()",
        "USE memory",
        "VACUUM",
        "RESET threads",
    })
    void callerSqlThatIsNotOneQueryIsRejectedNotASyntaxError(String sql, TraceRecorder recorder) {
        try (SqlAgent agent = agent(recorder)) {
            AgentResult r = recorder.track(agent.query(sql));

            assertRefusedOnce(r);
            assertThat(llm.callCount()).isZero();
            assertThat(agent.metrics().rejected()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "COPY (SELECT region FROM sales) TO 'out.csv'",
        "ATTACH 'other.db' AS o; SELECT region FROM sales",
        "SELECT secret FROM 'data/secret.csv'",
    })
    void aConversationTurnAfterTheRewriterIsRejectedTheSameWay(String reply, TraceRecorder recorder) {
        try (SqlAgent agent = agent(recorder)) {
            Conversation c = agent.conversation();
            llm.enqueueFor("refiner", "SELECT region FROM sales");
            recorder.track(c.ask("Which regions sold?"));
            // a rewriter that answers with a statement instead of a question: the question is kept as asked
            llm.enqueueFor("rewriter", reply);
            llm.enqueueFor("refiner", reply);
            AgentResult r = recorder.track(c.ask("and export them"));

            assertThat(r.question()).isEqualTo("and export them");
            assertRefusedOnce(r);
            assertThat(llm.requests("refiner")).hasSize(2);
        }
    }

    /** One in-memory DuckDB shared by the agent's connections (each a duplicate of the keeper's). */
    private static final class SingleConnection implements DataSource {
        private final Connection keeper;
        private final String name;

        SingleConnection(Connection keeper, String name) {
            this.keeper = keeper;
            this.name = name;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return ((org.duckdb.DuckDBConnection) keeper).duplicate();
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
            return java.util.logging.Logger.getLogger(name);
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
