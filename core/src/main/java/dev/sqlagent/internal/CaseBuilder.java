package dev.sqlagent.internal;

import dev.sqlagent.AgentResult;
import dev.sqlagent.cases.CaseRecord;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.StageTransition;
import dev.sqlagent.trace.Trace;
import dev.sqlagent.trace.TraceEvent;
import dev.sqlagent.verify.JudgeVerdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/** Turns a result and its trace into the case the library keeps. */
public final class CaseBuilder {

    private CaseBuilder() {
    }

    /**
     * @param result the result
     * @param table the host's table label, or empty
     * @param category the host's category label, or empty
     * @param checked whether verifiers or a judge were configured (an unchecked answer is not few-shot
     *     material)
     * @param finishedAt when the question finished
     * @return the case
     */
    public static CaseRecord from(AgentResult result, String table, String category, boolean checked,
            Instant finishedAt) {
        Trace trace = result.trace();
        List<String> tablesRead = List.of();
        List<String> tags = new ArrayList<>();
        OptionalInt score = OptionalInt.empty();
        Optional<Boolean> lastJudge = Optional.empty();
        Set<String> models = new LinkedHashSet<>();
        for (TraceEvent e : trace.events()) {
            if (e instanceof TraceEvent.GuardChecked g) {
                GuardVerdict v = g.verdict();
                if (v instanceof GuardVerdict.Accepted a && result.sql().map(v.sql()::equals).orElse(false)) {
                    tablesRead = List.copyOf(a.tables());
                }
            } else if (e instanceof TraceEvent.Judged j) {
                JudgeVerdict v = j.verdict();
                for (JudgeVerdict.Tag t : v.errorTags()) {
                    if (!tags.contains(t.name())) {
                        tags.add(t.name());
                    }
                }
                score = OptionalInt.of(v.score());
                lastJudge = Optional.of(v.correct());
            } else if (e instanceof TraceEvent.ModelCall m && !m.model().isEmpty()) {
                models.add(m.model());
            }
        }
        String error;
        String errorCategory = trace.correction().map(c -> c.errorCategory()).orElse("");
        if (result instanceof AgentResult.Failed) {
            AgentResult.Failed f = (AgentResult.Failed) result;
            error = f.message();
            errorCategory = f.errorCategory().map(Enum::name).orElse(errorCategory);
        } else if (result instanceof AgentResult.Rejected) {
            error = violations(((AgentResult.Rejected) result).violations());
        } else {
            error = "";
        }
        boolean verified = result.status() == AgentResult.Status.ANSWERED
                && (lastJudge.orElse(false) || (checked && lastJudge.isEmpty() && endedVerified(trace)));
        // a rejected or failed result already carries its trajectory, in its hand-off: the same extraction
        List<CaseRecord.Attempt> attempts = result.handOff().map(h -> h.attempts()).orElseGet(() -> attempts(trace));
        return new CaseRecord(trace.questionId(), result.question(), table, category, result.sql().orElse(""),
                result.status() == AgentResult.Status.ANSWERED ? CaseRecord.Status.GOOD : CaseRecord.Status.BAD,
                result.status().name(), error, errorCategory, tags, verified, score, trace.correctionCount(),
                attempts, tablesRead, new ArrayList<>(models), finishedAt, TraceJson.toJson(trace));
    }

    /** A refusal made only of columns and functions the database does not have: a mistake, not a violation. */
    private static boolean invented(GuardVerdict.Rejected r) {
        return r.violations().stream().allMatch(x -> x.type().inventedName());
    }

    /**
     * The trajectory of a question: each candidate of each round, with what the guard, the database and
     * the judge made of it, in the order they were first checked.
     *
     * @param trace the question's trace
     * @return the attempts
     */
    public static List<CaseRecord.Attempt> attempts(Trace trace) {
        Map<String, CaseRecord.Attempt> attempts = new LinkedHashMap<>();
        for (TraceEvent e : trace.events()) {
            if (e instanceof TraceEvent.GuardChecked g) {
                GuardVerdict v = g.verdict();
                String exec = v instanceof GuardVerdict.Accepted ? "not_run"
                        : v instanceof GuardVerdict.Rejected r ? (invented(r) ? "invented_name" : "rejected") : "unparseable";
                String error = v instanceof GuardVerdict.Rejected r ? violations(r.violations())
                        : v instanceof GuardVerdict.Unparseable u ? u.message() : "";
                attempts.put(g.round() + ":" + g.candidate(), new CaseRecord.Attempt(g.round(), v.sql(), exec, 0, error,
                        Optional.empty(), ""));
            } else if (e instanceof TraceEvent.Executed x) {
                String key = x.round() + ":" + x.candidate();
                CaseRecord.Attempt a = attempts.get(key);
                String sql = a != null ? a.sql() : x.sql();
                if (x.outcome() instanceof ExecutionOutcome.Success ok) {
                    attempts.put(key, new CaseRecord.Attempt(x.round(), sql, "ok", ok.table().rowCount(), "",
                            Optional.empty(), ""));
                } else {
                    var err = ((ExecutionOutcome.Failure) x.outcome()).error();
                    attempts.put(key, new CaseRecord.Attempt(x.round(), sql, "error", 0,
                            err.category() + ": " + err.message(), Optional.empty(), ""));
                }
            } else if (e instanceof TraceEvent.Judged j) {
                JudgeVerdict v = j.verdict();
                String key = j.round() + ":" + j.candidate();
                CaseRecord.Attempt a = attempts.get(key);
                if (a != null) {
                    attempts.put(key, new CaseRecord.Attempt(a.round(), a.sql(), a.execResult(), a.rows(), a.error(),
                            Optional.of(v.correct()), (v.comment() + " " + v.advice()).trim()));
                }
            }
        }
        return new ArrayList<>(attempts.values());
    }

    private static boolean endedVerified(Trace trace) {
        StageTransition last = null;
        for (TraceEvent e : trace.events()) {
            if (e instanceof TraceEvent.StageEntered) {
                last = ((TraceEvent.StageEntered) e).transition();
            }
        }
        return last != null && last.from() == Stage.VERIFY && last.reason().equals("verified");
    }

    /** The violations' own messages, as {@link Violation#message()} reads, joined by "; ". */
    private static String violations(List<Violation> violations) {
        StringBuilder sb = new StringBuilder();
        for (Violation v : violations) {
            sb.append(sb.length() > 0 ? "; " : "").append(v.message());
        }
        return sb.toString();
    }
}
