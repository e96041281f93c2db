package dev.sqlagent.eval;

import dev.sqlagent.AgentResult;
import dev.sqlagent.execution.ExecutionError;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.trace.CorrectionRecord;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.TraceEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds one trajectory line from a question's trace: the question, its table and category, and every
 * attempt (round, candidate, SQL, guard verdict, execution result, and the judgement: chosen or not,
 * by which rule, the verifiers' findings, whether it matches the gold result). Result rows are never
 * written, only their count and column names.
 */
final class Trajectories {

    private Trajectories() {
    }

    static Map<String, Object> of(EvalQuestion q, EvalRecord rec, AgentResult result, ResultTable gold,
            boolean ordered) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", q.id());
        m.put("db_id", q.dbId());
        m.put("question", q.question());
        m.put("table", q.table());
        m.put("category", q.category());
        m.put("status", rec.status());
        m.put("correct", rec.correct());
        m.put("final_sql", rec.sql());
        m.put("gold_sql", q.goldSql());
        List<Map<String, Object>> attempts = new ArrayList<>();
        if (result != null) {
            attempts = attempts(result, gold, ordered);
            result.trace().correction().ifPresentOrElse(c -> m.put("correction", correction(c)),
                    () -> m.put("correction", null));
        } else {
            m.put("correction", null);
        }
        m.put("attempts", attempts);
        m.put("message", rec.message());
        return m;
    }

    private static List<Map<String, Object>> attempts(AgentResult result, ResultTable gold, boolean ordered) {
        List<TraceEvent> events = result.trace().events();
        Map<String, TraceEvent.Executed> executed = new HashMap<>();
        Map<String, TraceEvent.Executed> bySql = new HashMap<>();
        Map<Integer, TraceEvent.Chosen> chosen = new HashMap<>();
        Map<Integer, List<String>> findings = new HashMap<>();
        int round = 0;
        for (TraceEvent e : events) {
            if (e instanceof TraceEvent.GuardChecked) {
                round = ((TraceEvent.GuardChecked) e).round();
            } else if (e instanceof TraceEvent.Executed) {
                TraceEvent.Executed x = (TraceEvent.Executed) e;
                executed.put(x.round() + "/" + x.candidate(), x);
                bySql.putIfAbsent(x.round() + "/" + x.sql(), x);
            } else if (e instanceof TraceEvent.Chosen) {
                TraceEvent.Chosen c = (TraceEvent.Chosen) e;
                chosen.put(c.round(), c);
            } else if (e instanceof TraceEvent.Note && ((TraceEvent.Note) e).stage() == Stage.VERIFY
                    && "verifier".equals(((TraceEvent.Note) e).kind())) {
                findings.computeIfAbsent(round, k -> new ArrayList<>()).add(((TraceEvent.Note) e).message());
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (TraceEvent e : events) {
            if (!(e instanceof TraceEvent.GuardChecked)) {
                continue;
            }
            TraceEvent.GuardChecked g = (TraceEvent.GuardChecked) e;
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("round", (long) g.round());
            a.put("candidate", (long) g.candidate());
            a.put("sql", g.verdict().sql());
            a.put("guard", guard(g.verdict()));
            TraceEvent.Executed x = executed.get(g.round() + "/" + g.candidate());
            if (x == null && g.verdict() instanceof GuardVerdict.Accepted) {
                x = bySql.get(g.round() + "/" + ((GuardVerdict.Accepted) g.verdict()).statement().sql());
            }
            a.put("exec_result", x == null ? null : execResult(x.outcome()));
            Map<String, Object> judge = new LinkedHashMap<>();
            TraceEvent.Chosen c = chosen.get(g.round());
            boolean isChosen = c != null && c.candidate() == g.candidate();
            judge.put("chosen", isChosen);
            judge.put("rule", isChosen ? c.rule() : "");
            judge.put("group_sizes", c == null ? List.of() : toLongs(c.groupSizes()));
            judge.put("findings", isChosen ? findings.getOrDefault(g.round(), List.of()) : List.of());
            Boolean matches = null;
            if (gold != null && x != null) {
                matches = x.outcome() instanceof ExecutionOutcome.Success
                        && GoldComparison.matches(gold, ((ExecutionOutcome.Success) x.outcome()).table(), ordered);
            }
            judge.put("matches_gold", matches);
            a.put("judge", judge);
            out.add(a);
        }
        return out;
    }

    private static List<Object> toLongs(List<Integer> ints) {
        List<Object> out = new ArrayList<>();
        for (Integer i : ints) {
            out.add(i.longValue());
        }
        return out;
    }

    private static Map<String, Object> guard(GuardVerdict v) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (v instanceof GuardVerdict.Accepted) {
            m.put("verdict", "ACCEPTED");
        } else if (v instanceof GuardVerdict.Rejected) {
            m.put("verdict", "REJECTED");
            List<Object> vs = new ArrayList<>();
            for (Violation viol : ((GuardVerdict.Rejected) v).violations()) {
                vs.add(viol.type() + ": " + viol.message());
            }
            m.put("violations", vs);
        } else {
            m.put("verdict", "UNPARSEABLE");
            m.put("message", ((GuardVerdict.Unparseable) v).message());
        }
        return m;
    }

    static Map<String, Object> execResult(ExecutionOutcome o) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (o instanceof ExecutionOutcome.Success) {
            ResultTable t = ((ExecutionOutcome.Success) o).table();
            m.put("ok", true);
            m.put("rows", (long) t.rowCount());
            m.put("truncated", t.truncated());
            m.put("columns", new ArrayList<Object>(t.columnNames()));
        } else {
            ExecutionError err = ((ExecutionOutcome.Failure) o).error();
            m.put("ok", false);
            m.put("error_category", err.category().name());
            m.put("message", err.message());
        }
        return m;
    }

    private static Map<String, Object> correction(CorrectionRecord c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("original_sql", c.originalSql());
        m.put("original_error", c.originalError());
        m.put("error_category", c.errorCategory());
        m.put("corrected_sql", c.correctedSql());
        m.put("correction_reason", c.correctionReason());
        return m;
    }
}
