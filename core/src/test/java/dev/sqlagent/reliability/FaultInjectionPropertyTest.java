package dev.sqlagent.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentMetrics;
import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.cases.CaseRecord;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.internal.run.StateMachine;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.StageTransition;
import dev.sqlagent.trace.TraceEvent;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Thousands of seeded questions through a model and a database that fail in every way we know, checking
 * the rules the library exists for after each one. Deterministic: the seed picks every fault. The default
 * run is {@value #DEFAULT_QUESTIONS} questions; {@code -Dsqlagent.reliability.questions=N} runs more and
 * {@code -Dsqlagent.reliability.seed=S} another sequence. Prints one line per invariant: questions checked
 * and violations.
 */
class FaultInjectionPropertyTest {

    static final int DEFAULT_QUESTIONS = 1000;

    /** What the model does on one call. */
    enum ModelFault {
        GOOD, CORRECTABLE, THROWS, TIMES_OUT, EMPTY, NULL, GARBAGE, ONE_MEGABYTE, HOSTILE, SAME_AGAIN, MALFORMED_JSON
    }

    /**
     * What the database does for one question. The plain faults hit every statement (the engine check's
     * EXPLAIN and the execution alike); the {@code ENGINE_CHECK_} ones hit only the engine check, the
     * {@code EXECUTION_} ones only the execution; a driver bug is a runtime exception from the driver.
     */
    enum DbFault {
        NONE, CONNECT_FAILS, FAILS_MID_QUERY, SLOW, PERMISSION_DENIED, DRIVER_BUG,
        ENGINE_CHECK_FAILS_MID_QUERY, ENGINE_CHECK_SLOW, ENGINE_CHECK_PERMISSION_DENIED, ENGINE_CHECK_DRIVER_BUG,
        EXECUTION_FAILS_MID_QUERY, EXECUTION_DRIVER_BUG;

        /** @param explain whether the statement is the engine check's  @return whether this fault hits it */
        boolean hits(boolean explain) {
            return name().startsWith("ENGINE_CHECK_") ? explain : !name().startsWith("EXECUTION_") || !explain;
        }

        /** @return the fault without its stage */
        String kind() {
            return name().replace("ENGINE_CHECK_", "").replace("EXECUTION_", "");
        }
    }

    private static final String[] GOOD = {"SELECT COUNT(*) FROM orders", "SELECT name FROM employees",
        "SELECT d.name, COUNT(*) FROM departments d JOIN employees e ON e.department_id = d.id GROUP BY d.name"};
    private static final String[] CORRECTABLE = {"SELECT nme FROM employees", "SELECT COUNT(*) FROM order",
        "SELEC name FROM employees", "SELECT name FROM employees GROUP BY department_id"};
    private static final String[] HOSTILE = {"SELECT base_salary FROM salary_detail", "DROP TABLE orders",
        "SELECT * FROM users; DELETE FROM users", "SELECT name FROM employees WHERE name = '' OR 1=1 -- '",
        "INSERT INTO orders VALUES (1)", "SELECT name FROM employees UNION SELECT password FROM users /* x */"};
    private static final String ONE_MB = "SELECT name FROM employees WHERE name = '" + "x".repeat(1 << 20) + "'";

    /** A model whose every call is drawn from the question's random sequence. */
    static final class FaultyModel implements LlmClient {
        Random random;
        String last = CORRECTABLE[0];
        final AtomicInteger calls = new AtomicInteger();
        boolean throwError;

        @Override
        public LlmResponse chat(LlmRequest request) {
            calls.incrementAndGet();
            if (throwError) {
                throw new AssertionError("a model client's own assertion");
            }
            ModelFault f = ModelFault.values()[random.nextInt(ModelFault.values().length)];
            String text;
            switch (f) {
                case GOOD:
                    text = GOOD[random.nextInt(GOOD.length)];
                    break;
                case CORRECTABLE:
                    text = CORRECTABLE[random.nextInt(CORRECTABLE.length)];
                    break;
                case THROWS:
                    throw new IllegalStateException("model client bug");
                case TIMES_OUT:
                    throw new LlmException(LlmException.Kind.TIMEOUT, "model timed out");
                case EMPTY:
                    text = "";
                    break;
                case NULL:
                    return null;
                case GARBAGE:
                    text = "\u0000\u00ff I think the answer is 42 !!! ```";
                    break;
                case ONE_MEGABYTE:
                    text = ONE_MB;
                    break;
                case HOSTILE:
                    text = HOSTILE[random.nextInt(HOSTILE.length)];
                    break;
                case SAME_AGAIN:
                    text = request.text().contains("\"sql\"") ? "{\"reason\": \"same\", \"sql\": \"" + last + "\"}" : last;
                    break;
                default:
                    text = "{\"reason\": \"fixed\", \"sql\": \"SELECT name FROM";
            }
            if (f != ModelFault.SAME_AGAIN && f != ModelFault.MALFORMED_JSON && f != ModelFault.ONE_MEGABYTE) {
                last = text;
            }
            if (random.nextBoolean() && f != ModelFault.EMPTY) {
                text = "{\"reason\": \"r\", \"sql\": \"" + text.replace("\\", "\\\\").replace("\"", "\\\"")
                        .replace("\n", " ") + "\"}";
            }
            return LlmResponse.of(text);
        }
    }

    /** A data source over the company database that fails as told. */
    static final class FaultyDatabase implements InvocationHandler {
        final DataSource real;
        volatile DbFault fault = DbFault.NONE;

        FaultyDatabase(DataSource real) {
            this.real = real;
        }

        DataSource dataSource() {
            return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
                    this);
        }

        @Override
        public Object invoke(Object proxy, java.lang.reflect.Method m, Object[] args) throws Throwable {
            if (m.getName().equals("getConnection")) {
                if (fault == DbFault.CONNECT_FAILS) {
                    throw new SQLException("Connection refused: 127.0.0.1:5432", "08001");
                }
                Connection c = (Connection) call(real, m, args);
                return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                        (p, cm, ca) -> {
                            Object r = call(c, cm, ca);
                            if (cm.getName().equals("prepareStatement") && r instanceof PreparedStatement) {
                                return statement((PreparedStatement) r, String.valueOf(ca[0]).startsWith("EXPLAIN"));
                            }
                            return r;
                        });
            }
            return call(real, m, args);
        }

        private Object statement(PreparedStatement ps, boolean explain) {
            return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {PreparedStatement.class},
                    (p, m, a) -> {
                        DbFault f = fault;
                        if (m.getName().equals("executeQuery") && f.hits(explain)) {
                            switch (f.kind()) {
                                case "FAILS_MID_QUERY":
                                    throw new SQLException("An I/O error occurred while sending to the backend.", "08006");
                                case "SLOW":
                                    throw new SQLTimeoutException("canceling statement due to statement timeout", "57014");
                                case "PERMISSION_DENIED":
                                    throw new SQLException("permission denied for table orders", "42501");
                                case "DRIVER_BUG":
                                    throw new IllegalStateException("driver bug: unexpected message type 'Z'");
                                default:
                                    break;
                            }
                        }
                        return call(ps, m, a);
                    });
        }

        private static Object call(Object target, java.lang.reflect.Method m, Object[] args) throws Throwable {
            try {
                return m.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /** Transitions per question, as the agent's listener hears them. */
    static final class Paths implements dev.sqlagent.trace.StageListener {
        final Map<String, List<StageTransition>> byQuestion = new ConcurrentHashMap<>();

        @Override
        public void onTransition(StageTransition t) {
            byQuestion.computeIfAbsent(t.questionId(), k -> new ArrayList<>()).add(t);
        }
    }

    @ParameterizedTest(name = "{0} candidate(s) per question")
    @ValueSource(ints = {1, 2})
    @Timeout(600)
    void everyInvariantHoldsForThousandsOfFaultyQuestions(int candidates) throws Exception {
        int n = Integer.getInteger("sqlagent.reliability.questions", DEFAULT_QUESTIONS);
        long seed = Long.getLong("sqlagent.reliability.seed", 20261201L) + candidates;
        CompanyDatabase company = CompanyDatabase.create();
        FaultyDatabase db = new FaultyDatabase(company.analyst());
        FaultyModel model = new FaultyModel();
        Paths paths = new Paths();
        Map<String, Integer> casesById = new ConcurrentHashMap<>();
        List<String> allowed = new ArrayList<>(List.of(CompanyDatabase.ALLOWED_TABLES));
        allowed.remove("audit_log");
        GuardPolicy policy = GuardPolicy.allowingTables(allowed.toArray(String[]::new));
        SqlAgent agent = SqlAgent.builder().llm(model).dataSource(db.dataSource()).listener(paths)
                .policy(policy).candidates(candidates)
                .caseSink(c -> casesById.merge(c.id(), 1, Integer::sum)).build();
        SchemaCatalog tables = SchemaCatalog.introspect(company.analyst(), policy);

        Map<String, int[]> tally = new LinkedHashMap<>();
        for (String inv : List.of("one typed result", "legal path", "at most one correction",
                "no model call after a rejection", "no environmental error corrected",
                "every model call traced and within the budget", "a policy violation always ends REJECTED",
                "never an internal fault", "a database fault classified the same in every stage",
                "exactly one case per question", "metrics equal the counted results")) {
            tally.put(inv, new int[2]);
        }
        Map<AgentResult.Status, Integer> counts = new HashMap<>();
        long traceCalls = 0;
        long traceCorrections = 0;
        List<String> ids = new ArrayList<>();
        Map<String, Integer> faults = new HashMap<>();
        List<String> examples = new ArrayList<>();

        Random master = new Random(seed);
        for (int q = 0; q < n; q++) {
            Random r = new Random(master.nextLong());
            model.random = r;
            DbFault dbf = r.nextInt(3) == 0 ? DbFault.values()[1 + r.nextInt(DbFault.values().length - 1)] : DbFault.NONE;
            db.fault = dbf;
            faults.merge(dbf.name(), 1, Integer::sum);
            int before = model.calls.get();
            AgentResult result;
            try {
                result = agent.ask("How many orders were placed, question " + q + "?");
            } catch (RuntimeException e) {
                result = null;
                examples.add("q" + q + " threw " + e);
            }
            int calls = model.calls.get() - before;
            check(tally, "one typed result", result != null && result.trace() != null
                    && (!(result instanceof AgentResult.Failed) || ((AgentResult.Failed) result).kind() != null), examples, q);
            if (result == null) {
                continue;
            }
            String id = result.trace().questionId();
            ids.add(id);
            counts.merge(result.status(), 1, Integer::sum);
            traceCalls += result.trace().modelCallCount();
            traceCorrections += result.trace().correctionCount();
            check(tally, "legal path", legal(id, paths.byQuestion.getOrDefault(id, List.of()), result), examples, q);
            check(tally, "at most one correction", result.trace().correctionCount() <= 1, examples, q);
            check(tally, "no model call after a rejection", noModelCallAfterRejection(result), examples, q);
            check(tally, "no environmental error corrected", noEnvironmentalCorrection(result), examples, q);
            if (!noEnvironmentalCorrection(result)) {
                examples.add("q" + q + " fault " + dbf + ": " + describe(result));
            }
            check(tally, "every model call traced and within the budget",
                    calls == result.trace().modelCallCount() && calls <= 2 + 2 * candidates, examples, q);
            check(tally, "a policy violation always ends REJECTED", violationRejected(result, tables), examples, q);
            check(tally, "never an internal fault", !(result instanceof AgentResult.Failed f
                    && f.kind() == dev.sqlagent.FailureKind.INTERNAL), examples, q);
            check(tally, "a database fault classified the same in every stage", faultsClassified(result), examples, q);
        }
        assertThat(agent.awaitCases(Duration.ofSeconds(60))).isTrue();
        for (String id : ids) {
            check(tally, "exactly one case per question", casesById.getOrDefault(id, 0) == 1, examples, -1);
        }
        check(tally, "exactly one case per question", casesById.size() == ids.size(), examples, -1);
        AgentMetrics m = agent.metrics();
        check(tally, "metrics equal the counted results", m.questions() == ids.size()
                && m.answered() == counts.getOrDefault(AgentResult.Status.ANSWERED, 0)
                && m.rejected() == counts.getOrDefault(AgentResult.Status.REJECTED, 0)
                && m.failed() == counts.getOrDefault(AgentResult.Status.FAILED, 0)
                && m.modelCalls() == traceCalls && m.corrections() == traceCorrections, examples, -1);
        agent.close();

        System.out.println("[reliability] fault injection: " + n + " questions, " + candidates + " candidate(s), seed "
                + seed + ", outcomes " + counts
                + ", database faults " + faults + ", corrections " + traceCorrections + ", model calls " + traceCalls);
        tally.forEach((inv, t) -> System.out.printf("[reliability]   %-48s checked %6d  violations %d%n", inv, t[0], t[1]));
        examples.stream().limit(10).forEach(e -> System.out.println("[reliability]   e.g. " + e));
        tally.forEach((inv, t) -> assertThat(t[1]).as(inv + " " + examples).isZero());
        assertThat(counts.keySet()).containsExactlyInAnyOrder(AgentResult.Status.values());
    }

    private static String describe(AgentResult result) {
        StringBuilder sb = new StringBuilder(result.status().name());
        for (TraceEvent e : result.trace().events()) {
            if (e instanceof TraceEvent.Executed x) {
                sb.append(" | executed c").append(x.candidate()).append(" r").append(x.round()).append(' ')
                        .append(x.outcome() instanceof ExecutionOutcome.Failure f ? f.error().category() + " "
                                + f.error().message() : "ok").append(" [").append(x.sql()).append(']');
            } else if (e instanceof TraceEvent.GuardChecked g) {
                sb.append(" | guard c").append(g.candidate()).append(" r").append(g.round()).append(' ')
                        .append(g.verdict().getClass().getSimpleName());
            } else if (e instanceof TraceEvent.StageEntered s) {
                sb.append(" | -> ").append(s.transition().to()).append(" (").append(s.transition().reason()).append(')');
            }
        }
        return sb.toString();
    }

    /** A guard rejection that is a policy violation (not only tables the database lacks) ends the question REJECTED. */
    private static boolean violationRejected(AgentResult result, SchemaCatalog tables) {
        for (TraceEvent e : result.trace().events()) {
            if (e instanceof TraceEvent.GuardChecked g && g.verdict() instanceof GuardVerdict.Rejected r
                    && StateMachine.inventedNames(r, tables::databaseHasTable).isEmpty()) {
                return result.status() == AgentResult.Status.REJECTED;
            }
        }
        return true;
    }

    /**
     * Every injected fault the trace shows (in the engine check or the execution) has the category the
     * executor gives it: connection lost and refused are CONNECTION, the statement timeout TIMEOUT, the
     * denied permission PERMISSION_DENIED, a driver's runtime exception UNKNOWN.
     */
    private static boolean faultsClassified(AgentResult result) {
        for (TraceEvent e : result.trace().events()) {
            if (!(e instanceof TraceEvent.Executed x) || !(x.outcome() instanceof ExecutionOutcome.Failure f)) {
                continue;
            }
            String message = f.error().message();
            ErrorCategory expected = message.contains("An I/O error occurred") || message.contains("Connection refused")
                    ? ErrorCategory.CONNECTION
                    : message.contains("canceling statement due to statement timeout") ? ErrorCategory.TIMEOUT
                    : message.contains("permission denied for table orders") ? ErrorCategory.PERMISSION_DENIED
                    : message.contains("driver bug") ? ErrorCategory.UNKNOWN : null;
            if (expected != null && f.error().category() != expected) {
                return false;
            }
        }
        return true;
    }

    private static void check(Map<String, int[]> tally, String inv, boolean ok, List<String> examples, int q) {
        int[] t = tally.get(inv);
        t[0]++;
        if (!ok) {
            t[1]++;
            if (examples.size() < 50) {
                examples.add(inv + " broken at question " + q);
            }
        }
    }

    private static boolean legal(String id, List<StageTransition> path, AgentResult result) {
        try {
            LegalTraceExtension.checkPath(id, path);
            LegalTraceExtension.checkResult(result);
            return true;
        } catch (AssertionError e) {
            return false;
        }
    }

    private static boolean noModelCallAfterRejection(AgentResult result) {
        if (result.status() != AgentResult.Status.REJECTED) {
            return true;
        }
        List<TraceEvent> events = result.trace().events();
        int lastRejection = -1;
        int lastCall = -1;
        for (int i = 0; i < events.size(); i++) {
            TraceEvent e = events.get(i);
            if (e instanceof TraceEvent.GuardChecked && ((TraceEvent.GuardChecked) e).verdict() instanceof GuardVerdict.Rejected) {
                lastRejection = i;
            }
            if (e instanceof TraceEvent.ModelCall) {
                lastCall = i;
            }
        }
        return lastRejection >= 0 && lastCall < lastRejection;
    }

    private static boolean noEnvironmentalCorrection(AgentResult result) {
        boolean environmental = false;
        for (TraceEvent e : result.trace().events()) {
            if (e instanceof TraceEvent.Executed && ((TraceEvent.Executed) e).outcome() instanceof ExecutionOutcome.Failure
                    && ((ExecutionOutcome.Failure) ((TraceEvent.Executed) e).outcome()).error().category().environmental()) {
                environmental = true;
            }
            if (environmental && e instanceof TraceEvent.StageEntered
                    && ((TraceEvent.StageEntered) e).transition().to() == Stage.CORRECT) {
                return false;
            }
        }
        return true;
    }

    /**
     * An {@code Error} thrown by a plugin (here the model client's own {@code AssertionError}) ends the
     * question FAILED, with its case and its metrics count, instead of escaping {@code ask}.
     */
    @Test
    void anErrorFromAPluginEndsFailedWithItsCaseAndCount() throws Exception {
        CompanyDatabase company = CompanyDatabase.create();
        FaultyModel model = new FaultyModel();
        model.random = new Random(1);
        model.throwError = true;
        List<CaseRecord> cases = new java.util.concurrent.CopyOnWriteArrayList<>();
        SqlAgent agent = SqlAgent.builder().llm(model).dataSource(company.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).caseSink(cases::add).build();

        AgentResult result = agent.ask("How many orders?");

        assertThat(result.status()).isEqualTo(AgentResult.Status.FAILED);
        assertThat(agent.awaitCases(Duration.ofSeconds(30))).isTrue();
        assertThat(cases).hasSize(1);
        assertThat(agent.metrics().failed()).isEqualTo(1);
        agent.close();
    }
}
