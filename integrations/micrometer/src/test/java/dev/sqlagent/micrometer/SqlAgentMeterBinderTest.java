package dev.sqlagent.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.llm.TokenUsage;
import dev.sqlagent.trace.Stage;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The binder on a real agent over H2, with a scripted model, read through a SimpleMeterRegistry. */
class SqlAgentMeterBinderTest {

    /** A clock that moves 7 ms at every reading, so that every stage takes time and none is measured. */
    private static final class SteppingClock extends Clock {
        private final AtomicLong millis = new AtomicLong(1_700_000_000_000L);

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.addAndGet(7));
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    private static final String REFINER = "refiner";

    private DataSource db;
    private ScriptedLlm llm;
    private SimpleMeterRegistry registry;
    private SqlAgentMeterBinder binder;

    @BeforeEach
    void setUp() throws SQLException {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:meters-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        ds.setUser("sa");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE products (id INT PRIMARY KEY, title VARCHAR(40), price DECIMAL(8,2))");
            s.execute("CREATE TABLE payroll (person VARCHAR(40), salary INT)");
            s.execute("INSERT INTO products VALUES (1, 'lamp', 30.00), (2, 'desk', 120.00)");
        }
        db = ds;
        llm = ScriptedLlm.create();
        registry = new SimpleMeterRegistry();
        binder = SqlAgentMeterBinder.builder().tags(Tags.of("agent", "shop")).build();
    }

    private SqlAgent agent() {
        SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db).policy(GuardPolicy.allowingTables("products"))
                .listener(binder).clock(new SteppingClock()).fixCache(false).caseSinkRetries(false).build();
        binder.monitor(agent).bindTo(registry);
        return agent;
    }

    private static String fix(String sql) {
        return "{\"reason\": \"fixed\", \"sql\": \"" + sql + "\"}";
    }

    /** Four questions: answered; rejected; corrected and answered; still failing after the correction. */
    private List<AgentResult> askFour(SqlAgent agent) {
        llm.enqueueResponse(REFINER, new LlmResponse(List.of("SELECT title FROM products"), new TokenUsage(50, 5), ""));
        llm.enqueueResponse(REFINER, new LlmResponse(List.of("SELECT salary FROM payroll"), new TokenUsage(40, 4), ""));
        llm.enqueueResponse(REFINER, new LlmResponse(List.of("SELECT title, COUNT(*) FROM products"), new TokenUsage(30, 3), ""));
        llm.enqueueResponse(REFINER, new LlmResponse(List.of(fix("SELECT title FROM products")), new TokenUsage(20, 2), ""));
        llm.enqueueResponse(REFINER, new LlmResponse(List.of("SELECT price, COUNT(*) FROM products"), new TokenUsage(10, 1), ""));
        llm.enqueueResponse(REFINER, new LlmResponse(List.of(fix("SELECT price, MAX(id) FROM products")), new TokenUsage(1, 1), ""));
        List<AgentResult> results = new ArrayList<>();
        for (String q : List.of("product titles", "salaries", "titles again", "prices")) {
            results.add(agent.ask(q));
        }
        assertThat(results).extracting(AgentResult::status).containsExactly(AgentResult.Status.ANSWERED,
                AgentResult.Status.REJECTED, AgentResult.Status.ANSWERED, AgentResult.Status.FAILED);
        return results;
    }

    private double count(String name, String... tags) {
        FunctionCounter c = registry.find(name).tags(tags).functionCounter();
        assertThat(c).as("counter %s %s", name, List.of(tags)).isNotNull();
        return c.count();
    }

    @Test
    void countersPublishOutcomesCorrectionsRejectionsFailuresCallsAndTokens() {
        askFour(agent());

        assertThat(count("sqlagent.questions", "status", "answered")).isEqualTo(2);
        assertThat(count("sqlagent.questions", "status", "rejected")).isEqualTo(1);
        assertThat(count("sqlagent.questions", "status", "failed")).isEqualTo(1);
        assertThat(count("sqlagent.executions")).isEqualTo(5);
        assertThat(count("sqlagent.corrections")).isEqualTo(2);
        assertThat(count("sqlagent.corrections.succeeded")).isEqualTo(1);
        assertThat(count("sqlagent.rejections", "violation", "table_not_allowed")).isEqualTo(1);
        assertThat(count("sqlagent.rejections", "violation", "comment")).isZero();
        assertThat(count("sqlagent.failures", "kind", "still_failing")).isEqualTo(1);
        assertThat(count("sqlagent.failures.errors", "category", "grouping_error")).isEqualTo(1);
        assertThat(count("sqlagent.model.calls", "role", "refiner")).isEqualTo(6);
        assertThat(count("sqlagent.model.calls", "role", "judge")).isZero();
        assertThat(count("sqlagent.model.tokens", "role", "refiner", "direction", "input")).isEqualTo(151);
        assertThat(count("sqlagent.model.tokens", "role", "refiner", "direction", "output")).isEqualTo(16);
        assertThat(registry.find("sqlagent.model.tokens").functionCounter().getId().getBaseUnit()).isEqualTo("tokens");
    }

    @Test
    void fixStoreFailuresAreCounted() {
        dev.sqlagent.cases.FixStore down = new dev.sqlagent.cases.FixStore() {
            @Override
            public java.util.Optional<String> get(Key key) throws SQLException {
                throw new SQLException("store down");
            }

            @Override
            public void put(Key key, String fixedSql) throws SQLException {
                throw new SQLException("store down");
            }
        };
        SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db).policy(GuardPolicy.allowingTables("products"))
                .fixStore(down).caseSinkRetries(false).build();
        binder.monitor(agent).bindTo(registry);
        // an execution error the guard cannot see (H2: TITLE must be in the GROUP BY list)
        llm.enqueueFor(REFINER, "SELECT title, COUNT(*) FROM products");
        llm.enqueueFor(REFINER, fix("SELECT title FROM products"));

        assertThat(agent.ask("titles").status()).isEqualTo(AgentResult.Status.ANSWERED);
        // the failed read pauses the store for FixCache.FIRST_PAUSE (1 s): the write after the answer fails too
        // only when the question took longer than that, which depends on the machine's speed
        assertThat(count("sqlagent.fix.store.failures")).isIn(1.0, 2.0);
        assertThat(count("sqlagent.fix.cache.hits")).isZero();
    }

    @Test
    void stageTimersAgreeWithTheTracesAndPublishPercentiles() {
        List<AgentResult> results = askFour(agent());

        Map<Stage, Duration> byTrace = new java.util.EnumMap<>(Stage.class);
        long stagesEntered = 0;
        for (AgentResult r : results) {
            r.trace().timeByStage().forEach((s, d) -> byTrace.merge(s, d, Duration::plus));
        }
        for (Stage s : List.of(Stage.GENERATE, Stage.GUARD, Stage.EXECUTE, Stage.CORRECT)) {
            Timer t = registry.find("sqlagent.stage.duration").tags("stage", s.name().toLowerCase(java.util.Locale.ROOT))
                    .timer();
            assertThat(t).isNotNull();
            assertThat(t.totalTime(TimeUnit.MILLISECONDS)).as("time in %s", s)
                    .isEqualTo((double) byTrace.get(s).toMillis()).isPositive();
            stagesEntered += t.count();
            assertThat(t.takeSnapshot().percentileValues()).hasSize(3);
        }
        long entered = results.stream().flatMap(r -> r.trace().stages().stream())
                .filter(s -> s == Stage.GENERATE || s == Stage.GUARD || s == Stage.EXECUTE || s == Stage.CORRECT).count();
        assertThat(stagesEntered).isEqualTo(entered);

        Timer answered = registry.find("sqlagent.question.duration").tags("status", "answered").timer();
        Timer failed = registry.find("sqlagent.question.duration").tags("status", "failed").timer();
        assertThat(answered.count()).isEqualTo(2);
        assertThat(failed.count()).isEqualTo(1);
        double allStages = registry.find("sqlagent.stage.duration").timers().stream()
                .mapToDouble(t -> t.totalTime(TimeUnit.MILLISECONDS)).sum();
        double allQuestions = registry.find("sqlagent.question.duration").timers().stream()
                .mapToDouble(t -> t.totalTime(TimeUnit.MILLISECONDS)).sum();
        assertThat(allQuestions).isEqualTo(allStages).isPositive();
    }

    @Test
    void everyMeterFollowsMicrometersNamingAndCarriesTheBinderTags() {
        askFour(agent());
        assertThat(registry.getMeters()).isNotEmpty().allSatisfy(m -> {
            Meter.Id id = m.getId();
            assertThat(id.getName()).matches("sqlagent(\\.[a-z]+)+");
            assertThat(id.getTag("agent")).isEqualTo("shop");
            // "phi" is Micrometer's own tag on the percentile gauges of a timer
            id.getTags().stream().filter(t -> !t.getKey().equals("phi"))
                    .forEach(t -> assertThat(t.getValue()).matches("[a-z_]+"));
        });
    }

    @Test
    void countersIncludeQuestionsAskedBeforeBindingAndReadZeroWithoutAnAgent() {
        SqlAgentMeterBinder unbound = SqlAgentMeterBinder.builder().build();
        SimpleMeterRegistry early = new SimpleMeterRegistry();
        unbound.bindTo(early);
        assertThat(early.find("sqlagent.questions").tags("status", "answered").functionCounter().count()).isZero();

        llm.enqueue("SELECT title FROM products");
        SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db).policy(GuardPolicy.allowingTables("products"))
                .caseSinkRetries(false).build();
        agent.ask("titles");
        unbound.monitor(agent);
        SimpleMeterRegistry late = new SimpleMeterRegistry();
        SqlAgentMeterBinder.of(agent).bindTo(late);

        assertThat(early.find("sqlagent.questions").tags("status", "answered").functionCounter().count()).isEqualTo(1);
        assertThat(late.find("sqlagent.questions").tags("status", "answered").functionCounter().count()).isEqualTo(1);
        assertThatThrownBy(() -> unbound.monitor(agent())).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void badPercentilesAreRefused() {
        assertThatThrownBy(() -> SqlAgentMeterBinder.builder().percentiles(0.5, 1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1.5");
    }
}
