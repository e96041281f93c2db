package dev.sqlagent;

import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.Trace;
import dev.sqlagent.trace.TraceEvent;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The measures an agent keeps over all its questions: outcomes, failures by kind, executions,
 * corrections and how many succeeded, model calls and tokens per role, time per stage, case-sink
 * and fix-store failures. Live and thread-safe; read it any time. A high {@link #correctionTriggerRate()} means the
 * schema description needs work, not more retries.
 */
public final class AgentMetrics {

    private final LongAdder questions = new LongAdder();
    private final LongAdder answered = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder executions = new LongAdder();
    private final LongAdder corrections = new LongAdder();
    private final LongAdder correctionsSucceeded = new LongAdder();
    /** Questions whose SQL reached the guard or the database, and those of them that were corrected. */
    private final LongAdder checkedQuestions = new LongAdder();
    private final LongAdder correctedQuestions = new LongAdder();
    private final LongAdder droppedViolations = new LongAdder();
    private final LongAdder modelCalls = new LongAdder();
    private final LongAdder sinkFailures = new LongAdder();
    private final LongAdder fixCacheHits = new LongAdder();
    private final LongAdder examplesRetrieved = new LongAdder();
    private final LongAdder parses = new LongAdder();
    private final LongAdder lexerPasses = new LongAdder();
    private final LongAdder handOffs = new LongAdder();
    private final Map<FailureKind, LongAdder> failures = new ConcurrentHashMap<>();
    private final Map<dev.sqlagent.execution.ErrorCategory, LongAdder> failuresByCategory = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> callsByRole = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> tokensByRole = new ConcurrentHashMap<>();
    private final Map<Stage, LongAdder> nanosByStage = new ConcurrentHashMap<>();
    private final Map<dev.sqlagent.guard.ViolationType, LongAdder> rejectionsByViolation = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> inputTokensByRole = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> outputTokensByRole = new ConcurrentHashMap<>();

    private final java.util.function.LongSupplier fixStoreFailures;

    AgentMetrics() {
        this(null);
    }

    /** @param fixCache the agent's fix cache, whose store failures are counted here, or null when off */
    AgentMetrics(dev.sqlagent.internal.FixCache fixCache) {
        this.fixStoreFailures = fixCache == null ? () -> 0L : fixCache::failures;
    }

    void record(AgentResult result) {
        questions.increment();
        Trace trace = result.trace();
        switch (result.status()) {
            case ANSWERED:
                answered.increment();
                break;
            case REJECTED:
                rejected.increment();
                ((AgentResult.Rejected) result).violations().stream().map(dev.sqlagent.guard.Violation::type).distinct()
                        .forEach(t -> rejectionsByViolation.computeIfAbsent(t, k -> new LongAdder()).increment());
                break;
            default:
                failed.increment();
                AgentResult.Failed f = (AgentResult.Failed) result;
                failures.computeIfAbsent(f.kind(), k -> new LongAdder()).increment();
                f.errorCategory().ifPresent(c -> failuresByCategory.computeIfAbsent(c, k -> new LongAdder()).increment());
        }
        if (droppedCandidates(result)) {
            droppedViolations.increment();
        }
        executions.add(trace.executions().size());
        corrections.add(trace.correctionCount());
        if (!trace.guardChecks().isEmpty() || !trace.executions().isEmpty()) {
            checkedQuestions.increment();
            if (trace.correctionCount() > 0) {
                correctedQuestions.increment();
            }
        }
        if (correctionSucceeded(trace)) {
            correctionsSucceeded.increment();
        }
        for (TraceEvent.ModelCall c : trace.modelCalls()) {
            modelCalls.increment();
            callsByRole.computeIfAbsent(c.role(), k -> new LongAdder()).increment();
            tokensByRole.computeIfAbsent(c.role(), k -> new LongAdder()).add(c.usage().totalTokens());
            inputTokensByRole.computeIfAbsent(c.role(), k -> new LongAdder()).add(c.usage().inputTokens());
            outputTokensByRole.computeIfAbsent(c.role(), k -> new LongAdder()).add(c.usage().outputTokens());
        }
        trace.timeByStage().forEach((s, d) -> nanosByStage.computeIfAbsent(s, k -> new LongAdder()).add(d.toNanos()));
        for (TraceEvent.Note n : trace.notes()) {
            if (n.kind().equals("fix_cache")) {
                fixCacheHits.increment();
            } else if (n.kind().equals("retrieval") && n.stage() == Stage.GENERATE) {
                examplesRetrieved.increment();
            }
        }
    }

    void recordSinkFailure() {
        sinkFailures.increment();
    }

    /**
     * Returns questions finished.
     *
     * @return questions finished
     */
    public long questions() {
        return questions.sum();
    }

    /**
     * Returns questions answered.
     *
     * @return questions answered
     */
    public long answered() {
        return answered.sum();
    }

    /**
     * Returns questions rejected by the guard.
     *
     * @return questions rejected by the guard
     */
    public long rejected() {
        return rejected.sum();
    }

    /**
     * Returns questions failed.
     *
     * @return questions failed
     */
    public long failed() {
        return failed.sum();
    }

    /**
     * Returns failures by kind.
     *
     * @return failures by kind
     */
    public Map<FailureKind, Long> failuresByKind() {
        Map<FailureKind, Long> out = new EnumMap<>(FailureKind.class);
        failures.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /**
     * Returns failures by the error category that caused them (failures without one are not counted here).
     *
     * @return failures by the error category that caused them (failures without one are not counted here)
     */
    public Map<dev.sqlagent.execution.ErrorCategory, Long> failuresByErrorCategory() {
        Map<dev.sqlagent.execution.ErrorCategory, Long> out = new EnumMap<>(dev.sqlagent.execution.ErrorCategory.class);
        failuresByCategory.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /**
     * Returns SQL executions.
     *
     * @return SQL executions
     */
    public long executions() {
        return executions.sum();
    }

    /**
     * Returns corrections made.
     *
     * @return corrections made
     */
    public long corrections() {
        return corrections.sum();
    }

    /**
     * The share of questions that needed the correction: questions corrected ÷ questions whose SQL reached
     * the guard or the database. A question is corrected at most once, so the rate lies in [0, 1], also when
     * the guard sends an invented name to the correction without running it (executions are not the
     * denominator: such a question has a correction and no execution). Questions that ended before any SQL
     * was checked (a blank question, no SQL in the reply, a model fault, a metric tool's answer without the
     * guard) do not count.
     *
     * @return questions corrected ÷ questions whose SQL was checked; 0 when none was
     */
    public double correctionTriggerRate() {
        long checked = checkedQuestions.sum();
        return checked == 0 ? 0 : (double) correctedQuestions.sum() / checked;
    }

    /**
     * A correction succeeded when the SQL it produced ran without error: for an error, the corrected SQL
     * ran; for a result anomaly, a different SQL ran. A correction that returned the same SQL or none, or
     * could not reach the model, did not succeed, even when a flagged answer stands.
     *
     * @return corrections that succeeded / corrections; {@code NaN} (undefined) when no correction was made
     */
    public double correctionSuccessRate() {
        long c = corrections();
        return c == 0 ? Double.NaN : (double) correctionsSucceeded.sum() / c;
    }

    /**
     * Returns corrections whose SQL then ran without error.
     *
     * @return corrections whose SQL then ran without error
     */
    public long correctionsSucceeded() {
        return correctionsSucceeded.sum();
    }

    /**
     * Returns questions in which candidates that broke the policy were dropped, whatever the question's
     * ending (answered, or failed afterwards). With {@link #rejected()} this counts every question in which
     * a policy violation was found.
     *
     * @return questions with dropped violating candidates (only with {@code dropViolatingCandidates(true)})
     */
    public long droppedViolations() {
        return droppedViolations.sum();
    }

    /**
     * Whether candidates of the question broke the policy and were dropped, whatever its ending: listed on
     * an answer, and noted in the trace (kind {@code dropped_candidates}) by the agent for any ending.
     */
    private static boolean droppedCandidates(AgentResult result) {
        if (result instanceof AgentResult.Answered a && !a.droppedCandidates().isEmpty()) {
            return true;
        }
        for (TraceEvent.Note n : result.trace().notes()) {
            if (n.kind().equals("dropped_candidates")) {
                return true;
            }
        }
        return false;
    }

    private static boolean correctionSucceeded(Trace trace) {
        if (trace.correctionCount() == 0) {
            return false;
        }
        for (TraceEvent.Executed x : trace.executions()) {
            if (x.round() > 0 && x.outcome().succeeded()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns rejected / questions, 0 when none.
     *
     * @return rejected / questions, 0 when none
     */
    public double rejectionRate() {
        long q = questions();
        return q == 0 ? 0 : (double) rejected() / q;
    }

    /**
     * Returns model calls.
     *
     * @return model calls
     */
    public long modelCalls() {
        return modelCalls.sum();
    }

    /**
     * Returns model calls per question, 0 when none.
     *
     * @return model calls per question, 0 when none
     */
    public double modelCallsPerQuestion() {
        long q = questions();
        return q == 0 ? 0 : (double) modelCalls() / q;
    }

    /**
     * Returns model calls by role id.
     *
     * @return model calls by role id
     */
    public Map<String, Long> modelCallsByRole() {
        Map<String, Long> out = new java.util.TreeMap<>();
        callsByRole.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /**
     * Returns tokens (input + output) by role id.
     *
     * @return tokens (input + output) by role id
     */
    public Map<String, Long> tokensByRole() {
        Map<String, Long> out = new java.util.TreeMap<>();
        tokensByRole.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /**
     * Returns total time spent in each stage over all questions.
     *
     * @return total time spent in each stage over all questions
     */
    public Map<Stage, Duration> timeByStage() {
        Map<Stage, Duration> out = new EnumMap<>(Stage.class);
        nanosByStage.forEach((k, v) -> out.put(k, Duration.ofNanos(v.sum())));
        return out;
    }

    /**
     * Rejected questions by the type of violation found; a question with violations of several types
     * counts once under each, so the values may add up to more than {@link #rejected()}.
     *
     * @return rejected questions by violation type
     */
    public Map<dev.sqlagent.guard.ViolationType, Long> rejectionsByViolationType() {
        Map<dev.sqlagent.guard.ViolationType, Long> out = new EnumMap<>(dev.sqlagent.guard.ViolationType.class);
        rejectionsByViolation.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /**
     * Returns input (prompt) tokens by role id.
     *
     * @return input (prompt) tokens by role id
     */
    public Map<String, Long> inputTokensByRole() {
        Map<String, Long> out = new java.util.TreeMap<>();
        inputTokensByRole.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /**
     * Returns output (completion) tokens by role id.
     *
     * @return output (completion) tokens by role id
     */
    public Map<String, Long> outputTokensByRole() {
        Map<String, Long> out = new java.util.TreeMap<>();
        outputTokensByRole.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /**
     * Returns corrections answered from the fix cache, each a model call saved.
     *
     * @return corrections answered from the fix cache, each a model call saved
     */
    public long fixCacheHits() {
        return fixCacheHits.sum();
    }

    /**
     * Returns the calls to the fix store ({@code SqlAgent.Builder.fixStore}) that failed.
     *
     * @return failed fix-store calls: each a correction that went to the model instead, or a verified fix
     *     that was not kept
     */
    public long fixStoreFailures() {
        return fixStoreFailures.getAsLong();
    }

    /**
     * Returns questions whose generation was shown few-shot examples from the case library.
     *
     * @return questions whose generation was shown few-shot examples from the case library
     */
    public long questionsWithExamples() {
        return examplesRetrieved.sum();
    }

    void recordWork(dev.sqlagent.internal.RunScope scope) {
        parses.add(scope.counted(dev.sqlagent.internal.Work.PARSE));
        lexerPasses.add(scope.counted(dev.sqlagent.internal.Work.LEXER_PASS));
        handOffs.add(scope.counted(dev.sqlagent.internal.Work.HAND_OFF));
    }

    /**
     * Runs of the SQL parser over all questions: each candidate, correction and engine-check reading that
     * was parsed (a statement the simple grammar refused and the complex one read counts two). Divided by
     * {@link #questions()}, the parser's work per question, which the project's tests hold to a fixed
     * count so that an added parse is seen.
     *
     * @return the parses so far
     */
    public long parses() {
        return parses.sum();
    }

    /**
     * Passes of the library's own lexer over a statement's text, over all questions.
     *
     * @return the passes so far
     */
    public long lexerPasses() {
        return lexerPasses.sum();
    }

    /**
     * Times work of a question was handed to another thread (candidates run in parallel, the executor's
     * helper threads), over all questions.
     *
     * @return the hand-offs so far
     */
    public long handOffs() {
        return handOffs.sum();
    }

    /**
     * Returns case-sink deliveries that failed.
     *
     * @return case-sink deliveries that failed
     */
    public long sinkFailures() {
        return sinkFailures.sum();
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT,
                "AgentMetrics{questions=%d, answered=%d, rejected=%d, failed=%d, executions=%d, corrections=%d,"
                        + " triggerRate=%.3f, successRate=%.3f, modelCalls=%d, fixCacheHits=%d, sinkFailures=%d,"
                        + " fixStoreFailures=%d}",
                questions(), answered(), rejected(), failed(), executions(), corrections(), correctionTriggerRate(),
                correctionSuccessRate(), modelCalls(), fixCacheHits(), sinkFailures(),
                fixStoreFailures());
    }
}
