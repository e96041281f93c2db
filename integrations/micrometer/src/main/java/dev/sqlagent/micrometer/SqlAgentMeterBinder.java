package dev.sqlagent.micrometer;

import dev.sqlagent.AgentMetrics;
import dev.sqlagent.AgentResult;
import dev.sqlagent.AgentRole;
import dev.sqlagent.FailureKind;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.StageListener;
import dev.sqlagent.trace.StageTransition;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * Publishes an agent's measures to Micrometer. Counters read the agent's own {@link AgentMetrics}, so
 * they agree with it and include questions asked before binding; timers are fed by the binder acting
 * as the agent's {@link StageListener}.
 *
 * <pre>{@code
 * SqlAgentMeterBinder meters = SqlAgentMeterBinder.builder().tags(Tags.of("agent", "sales")).build();
 * SqlAgent agent = SqlAgent.builder() ... .listener(meters).build();
 * meters.monitor(agent).bindTo(registry);
 * }</pre>
 *
 * <table>
 *   <caption>Meters (names in Micrometer's dotted lower case; a registry renders them its own way)</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@code sqlagent.questions}</td><td>counter</td><td>{@code status}: answered, rejected,
 *       failed</td><td>finished questions</td></tr>
 *   <tr><td>{@code sqlagent.executions}</td><td>counter</td><td></td><td>SQL statements run</td></tr>
 *   <tr><td>{@code sqlagent.corrections}</td><td>counter</td><td></td><td>corrections triggered</td></tr>
 *   <tr><td>{@code sqlagent.corrections.succeeded}</td><td>counter</td><td></td><td>questions answered after
 *       their correction</td></tr>
 *   <tr><td>{@code sqlagent.rejections}</td><td>counter</td><td>{@code violation}: table_not_allowed, …</td>
 *       <td>rejected questions by violation type (once per type per question)</td></tr>
 *   <tr><td>{@code sqlagent.failures}</td><td>counter</td><td>{@code kind}: still_failing, environment, …</td>
 *       <td>failed questions by kind</td></tr>
 *   <tr><td>{@code sqlagent.failures.errors}</td><td>counter</td><td>{@code category}: column_not_found, …</td>
 *       <td>failed questions by the database error category that caused them</td></tr>
 *   <tr><td>{@code sqlagent.model.calls}</td><td>counter</td><td>{@code role}: refiner, judge, …</td>
 *       <td>model calls</td></tr>
 *   <tr><td>{@code sqlagent.model.tokens}</td><td>counter, base unit tokens</td><td>{@code role},
 *       {@code direction}: input, output</td><td>tokens the provider reported</td></tr>
 *   <tr><td>{@code sqlagent.fix.cache.hits}</td><td>counter</td><td></td><td>corrections taken from the fix
 *       cache</td></tr>
 *   <tr><td>{@code sqlagent.case.sink.failures}</td><td>counter</td><td></td><td>failed case deliveries</td></tr>
 *   <tr><td>{@code sqlagent.stage.duration}</td><td>timer</td><td>{@code stage}: generate, execute, …</td>
 *       <td>time in each stage, from entering it to entering the next</td></tr>
 *   <tr><td>{@code sqlagent.question.duration}</td><td>timer</td><td>{@code status}</td><td>time from the
 *       first move of a question to its end</td></tr>
 * </table>
 *
 * <p>Timers publish the percentiles given to {@link Builder#percentiles} (default 0.5, 0.95, 0.99) and,
 * if asked, a histogram. They count only questions whose transitions this binder heard: register it
 * with {@link SqlAgent.Builder#listener}. Rates are left to the monitoring system (correction trigger
 * rate = {@code corrections / executions}; success rate = {@code corrections.succeeded / corrections}).
 *
 * <p>Thread-safe. One binder serves one agent, and may be bound to several registries. It keeps one
 * small entry per question under way, dropped when the question reaches its terminal stage (every
 * question does: the agent ends each in ANSWERED, REJECTED or FAILED).
 */
public final class SqlAgentMeterBinder implements MeterBinder, StageListener {

    /** Default percentiles of the timers. */
    public static final double[] DEFAULT_PERCENTILES = {0.5, 0.95, 0.99};

    private final Tags tags;
    private final double[] percentiles;
    private final boolean histogram;
    private final AtomicReference<AgentMetrics> source = new AtomicReference<>();
    private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();
    private final Map<String, Open> open = new ConcurrentHashMap<>();

    private SqlAgentMeterBinder(Builder b) {
        this.tags = b.tags;
        this.percentiles = b.percentiles.clone();
        this.histogram = b.histogram;
    }

    /** {@return a builder} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A binder for an agent already built: counters only, unless it was also registered as the agent's
     * listener.
     *
     * @param agent the agent
     * @return the binder, monitoring the agent
     * @throws NullPointerException if the agent is null
     */
    public static SqlAgentMeterBinder of(SqlAgent agent) {
        return builder().build().monitor(agent);
    }

    /**
     * Names the agent whose counters are published.
     *
     * @param agent the agent
     * @return this
     * @throws NullPointerException if the agent is null
     * @throws IllegalStateException if another agent is already monitored
     */
    public SqlAgentMeterBinder monitor(SqlAgent agent) {
        AgentMetrics m = Objects.requireNonNull(agent, "agent").metrics();
        if (!source.compareAndSet(null, m) && source.get() != m) {
            throw new IllegalStateException("this binder already monitors another agent");
        }
        return this;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        counter(registry, "sqlagent.questions", "finished questions", Tags.of("status", "answered"), AgentMetrics::answered);
        counter(registry, "sqlagent.questions", "finished questions", Tags.of("status", "rejected"), AgentMetrics::rejected);
        counter(registry, "sqlagent.questions", "finished questions", Tags.of("status", "failed"), AgentMetrics::failed);
        counter(registry, "sqlagent.executions", "SQL statements run", Tags.empty(), AgentMetrics::executions);
        counter(registry, "sqlagent.corrections", "corrections triggered", Tags.empty(), AgentMetrics::corrections);
        counter(registry, "sqlagent.corrections.succeeded", "questions answered after their correction", Tags.empty(),
                AgentMetrics::correctionsSucceeded);
        for (ViolationType v : ViolationType.values()) {
            counter(registry, "sqlagent.rejections", "rejected questions by violation type",
                    Tags.of("violation", tagValue(v)), m -> m.rejectionsByViolationType().getOrDefault(v, 0L));
        }
        for (FailureKind k : FailureKind.values()) {
            counter(registry, "sqlagent.failures", "failed questions by kind", Tags.of("kind", tagValue(k)),
                    m -> m.failuresByKind().getOrDefault(k, 0L));
        }
        for (ErrorCategory c : ErrorCategory.values()) {
            counter(registry, "sqlagent.failures.errors", "failed questions by the error category that caused them",
                    Tags.of("category", tagValue(c)), m -> m.failuresByErrorCategory().getOrDefault(c, 0L));
        }
        for (AgentRole r : AgentRole.values()) {
            String role = r.id();
            Tags roleTag = Tags.of("role", role);
            counter(registry, "sqlagent.model.calls", "model calls", roleTag,
                    m -> m.modelCallsByRole().getOrDefault(role, 0L));
            tokens(registry, roleTag.and("direction", "input"), m -> m.inputTokensByRole().getOrDefault(role, 0L));
            tokens(registry, roleTag.and("direction", "output"), m -> m.outputTokensByRole().getOrDefault(role, 0L));
        }
        counter(registry, "sqlagent.fix.cache.hits", "corrections taken from the fix cache", Tags.empty(),
                AgentMetrics::fixCacheHits);
        counter(registry, "sqlagent.case.sink.failures", "failed case deliveries", Tags.empty(),
                AgentMetrics::sinkFailures);
        counter(registry, "sqlagent.fix.store.failures", "fix store calls that failed (no fix, never a failed question)",
                Tags.empty(), AgentMetrics::fixStoreFailures);
        for (Stage s : Stage.values()) {
            if (!s.isTerminal() && s != Stage.RECEIVED) {
                stageTimer(registry, s);
            }
        }
        for (AgentResult.Status s : AgentResult.Status.values()) {
            questionTimer(registry, s);
        }
        registries.add(registry);
    }

    /**
     * Records the time of the stage just left; at a terminal stage, the question's time as well.
     *
     * @param t the move just made
     */
    @Override
    public void onTransition(StageTransition t) {
        if (t.to().isTerminal()) {
            Open o = open.remove(t.questionId());
            AgentResult.Status status = AgentResult.Status.valueOf(t.to().name());
            // a question refused on arrival (RECEIVED -> FAILED) spent no measured time
            Duration total = o == null ? Duration.ZERO : Duration.between(o.startedAt, t.at());
            for (MeterRegistry r : registries) {
                if (o != null) {
                    stageTimer(r, o.stage).record(Duration.between(o.enteredAt, t.at()));
                }
                questionTimer(r, status).record(total);
            }
            return;
        }
        Open[] previous = new Open[1];
        open.compute(t.questionId(), (id, o) -> {
            previous[0] = o;
            return new Open(t.to(), t.at(), o == null ? t.at() : o.startedAt);
        });
        if (previous[0] != null) {
            Duration inStage = Duration.between(previous[0].enteredAt, t.at());
            for (MeterRegistry r : registries) {
                stageTimer(r, previous[0].stage).record(inStage);
            }
        }
    }

    private void counter(MeterRegistry registry, String name, String description, Tags extra,
            ToDoubleFunction<AgentMetrics> value) {
        FunctionCounter.builder(name, source, ref -> {
            AgentMetrics m = ref.get();
            return m == null ? 0 : value.applyAsDouble(m);
        }).description(description).tags(tags).tags(extra).register(registry);
    }

    private void tokens(MeterRegistry registry, Tags extra, ToDoubleFunction<AgentMetrics> value) {
        FunctionCounter.builder("sqlagent.model.tokens", source, ref -> {
            AgentMetrics m = ref.get();
            return m == null ? 0 : value.applyAsDouble(m);
        }).description("tokens the model provider reported").baseUnit("tokens").tags(tags).tags(extra)
                .register(registry);
    }

    private Timer stageTimer(MeterRegistry registry, Stage stage) {
        return timer("sqlagent.stage.duration", "time in a stage, from entering it to entering the next",
                Tag.of("stage", tagValue(stage))).register(registry);
    }

    private Timer questionTimer(MeterRegistry registry, AgentResult.Status status) {
        return timer("sqlagent.question.duration", "time from a question's first move to its end",
                Tag.of("status", tagValue(status))).register(registry);
    }

    private Timer.Builder timer(String name, String description, Tag tag) {
        Timer.Builder b = Timer.builder(name).description(description).tags(tags).tags(List.of(tag))
                .publishPercentileHistogram(histogram);
        if (percentiles.length > 0) {
            b.publishPercentiles(percentiles);
        }
        return b;
    }

    private static String tagValue(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    /** A question under way: the stage it is in, since when, and when it started. */
    private static final class Open {
        final Stage stage;
        final java.time.Instant enteredAt;
        final java.time.Instant startedAt;

        Open(Stage stage, java.time.Instant enteredAt, java.time.Instant startedAt) {
            this.stage = stage;
            this.enteredAt = enteredAt;
            this.startedAt = startedAt;
        }
    }

    /** Builds a {@link SqlAgentMeterBinder}. */
    public static final class Builder {
        private Tags tags = Tags.empty();
        private double[] percentiles = DEFAULT_PERCENTILES.clone();
        private boolean histogram;

        private Builder() {
        }

        /**
         * Sets tags added to every meter; by default none.
         *
         * @param tags tags added to every meter, e.g. {@code agent=sales} when one application runs
         *     several agents
         * @return this
         * @throws NullPointerException if the tags are null
         */
        public Builder tags(Iterable<Tag> tags) {
            this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
            return this;
        }

        /**
         * Sets the percentiles the timers publish; defaults to
         * {@link SqlAgentMeterBinder#DEFAULT_PERCENTILES}.
         *
         * @param percentiles the percentiles the timers publish, each in [0, 1]; none for none
         * @return this
         * @throws IllegalArgumentException if a percentile is outside [0, 1]
         */
        public Builder percentiles(double... percentiles) {
            for (double p : percentiles) {
                if (!(p >= 0 && p <= 1)) {
                    throw new IllegalArgumentException("percentiles must be in [0, 1] but one was " + p);
                }
            }
            this.percentiles = percentiles.clone();
            return this;
        }

        /**
         * Chooses whether the timers also publish a percentile histogram.
         *
         * @param enabled whether the timers publish a percentile histogram, for percentiles aggregated
         *     across instances (default false)
         * @return this
         */
        public Builder histogram(boolean enabled) {
            this.histogram = enabled;
            return this;
        }

        /** {@return the binder} */
        public SqlAgentMeterBinder build() {
            return new SqlAgentMeterBinder(this);
        }
    }
}
