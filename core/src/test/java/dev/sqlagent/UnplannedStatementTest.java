package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.trace.CorrectionRecord;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A statement the engine check could not plan is never run on the guard's word alone: the engine's error
 * stands for the statement's execution. An environmental error (the database not answering the EXPLAIN)
 * ends the question; a correctable one is corrected with the engine's message. The database here refuses to
 * plan statements that name a marker but would run them: the trace must show that they never ran.
 */
@ExtendWith(LegalTraceExtension.class)
class UnplannedStatementTest {

    private static final String REFINER = AgentRole.REFINER.id();
    private static final String MARKER = "7319";

    private CompanyDatabase db;
    private ScriptedLlm llm;
    private final List<String> ran = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        db = CompanyDatabase.create();
        llm = ScriptedLlm.create();
    }

    /** The company database, refusing to EXPLAIN any statement naming {@link #MARKER}, recording the rest. */
    private DataSource refusingToPlan(String sqlState, String message) {
        DataSource real = db.analyst();
        InvocationHandler dataSource = (proxy, method, args) -> {
            if (method.getName().equals("getConnection")) {
                Connection c = (Connection) invoke(real, method, args);
                return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                        (p, m, a) -> {
                            if ((m.getName().equals("prepareStatement") || m.getName().equals("prepareCall"))
                                    && a != null && a[0] instanceof String sql) {
                                if (sql.startsWith("EXPLAIN") && sql.contains(MARKER)) {
                                    throw new SQLException(message, sqlState);
                                }
                                if (!sql.startsWith("EXPLAIN")) {
                                    ran.add(sql);
                                }
                            }
                            return invoke(c, m, a);
                        });
            }
            return invoke(real, method, args);
        };
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
                dataSource);
    }

    private static Object invoke(Object target, java.lang.reflect.Method m, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private SqlAgent.Builder agent(DataSource ds, TraceRecorder recorder) {
        return SqlAgent.builder().llm(llm).dataSource(ds).dialect(Dialect.H2)
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).listener(recorder);
    }

    @Test
    void aStatementTheEngineCannotPlanForTheEnvironmentIsNeverRunAndTheQuestionFails(TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name FROM employees WHERE id <> " + MARKER);
        AgentResult r = recorder.track(agent(refusingToPlan("08006", "the connection was reset"), recorder).build()
                .ask("Who works here?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.FAILED);
        assertThat(ran).noneMatch(sql -> sql.contains(MARKER));
        assertThat(r.trace().correction()).isEmpty();
    }

    @Test
    void aStatementTheEngineCannotPlanForAnErrorInItIsCorrectedWithTheEnginesMessageWithoutRunning(
            TraceRecorder recorder) {
        llm.enqueueFor(REFINER, "SELECT name FROM employees WHERE id <> " + MARKER);
        llm.enqueueFor(REFINER, "{\"reason\": \"no marker\", \"sql\": \"SELECT name FROM employees\"}");
        AgentResult r = recorder.track(agent(refusingToPlan("42S22", "Column \"NAMEX\" not found"), recorder)
                .build().ask("Who works here?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        CorrectionRecord c = r.trace().correction().orElseThrow();
        assertThat(c.originalError()).contains("NAMEX");
        assertThat(c.errorCategory()).isEqualTo("COLUMN_NOT_FOUND");
        assertThat(ran).noneMatch(sql -> sql.contains(MARKER)).anyMatch(sql -> sql.contains("FROM employees"));
    }
}
