package dev.sqlagent.examples.cli;

import dev.sqlagent.AgentResult;
import dev.sqlagent.execution.ExecutionError;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.trace.CorrectionRecord;
import dev.sqlagent.trace.TraceEvent;
import java.io.PrintStream;
import java.util.List;

/** Prints a result and its trace for people: stages, SQL, verdicts, the correction record, the answer. */
final class TracePrinter {

    private static final int MAX_ROWS_SHOWN = 5;

    private final PrintStream out;
    private final boolean showTable;

    TracePrinter(PrintStream out) {
        this(out, true);
    }

    /** @param showTable whether an answer's first rows follow the trace (ask prints the whole table itself) */
    TracePrinter(PrintStream out, boolean showTable) {
        this.out = out;
        this.showTable = showTable;
    }

    void print(String title, AgentResult result) {
        out.println("== " + title + " " + "=".repeat(Math.max(3, 70 - title.length())));
        out.println("Q: " + result.question());
        for (TraceEvent e : result.trace().events()) {
            if (e instanceof TraceEvent.ModelCall) {
                TraceEvent.ModelCall c = (TraceEvent.ModelCall) e;
                String reply = c.replies().isEmpty() ? "(no reply: " + c.error() + ")" : oneLine(c.replies().get(0));
                line(c.stage().name(), c.role() + " replied (" + c.usage().totalTokens() + " tokens): " + reply);
            } else if (e instanceof TraceEvent.GuardChecked) {
                GuardVerdict v = ((TraceEvent.GuardChecked) e).verdict();
                if (v instanceof GuardVerdict.Accepted) {
                    line("GUARD", "ACCEPTED, runs: " + oneLine(((GuardVerdict.Accepted) v).statement().sql()));
                } else if (v instanceof GuardVerdict.Rejected) {
                    for (Violation viol : ((GuardVerdict.Rejected) v).violations()) {
                        line("GUARD", "REJECTED " + viol.type() + " [" + viol.fragment() + "]: " + viol.message());
                    }
                } else {
                    line("GUARD", "UNPARSEABLE: " + ((GuardVerdict.Unparseable) v).message());
                }
            } else if (e instanceof TraceEvent.Executed) {
                ExecutionOutcome o = ((TraceEvent.Executed) e).outcome();
                if (o instanceof ExecutionOutcome.Success) {
                    ResultTable t = ((ExecutionOutcome.Success) o).table();
                    line("EXECUTE", "ok, " + t.rowCount() + " row(s)" + (t.truncated() ? " (truncated)" : "") + " in "
                            + t.elapsed().toMillis() + " ms");
                } else {
                    ExecutionError err = ((ExecutionOutcome.Failure) o).error();
                    line("EXECUTE", err.category() + " (SQLState " + err.sqlState() + ", code " + err.vendorCode() + "): "
                            + oneLine(err.message()));
                }
            } else if (e instanceof TraceEvent.Corrected) {
                CorrectionRecord r = ((TraceEvent.Corrected) e).record();
                line("CORRECT", "original sql:   " + oneLine(r.originalSql()));
                line("", "original error: " + oneLine(r.originalError()) + " [" + r.errorCategory() + "]");
                line("", "reason:         " + (r.correctionReason().isEmpty() ? "(none given)" : r.correctionReason()));
                line("", "corrected sql:  " + (r.correctedSql().isEmpty() ? "(none)" : oneLine(r.correctedSql())));
            } else if (e instanceof TraceEvent.Note) {
                TraceEvent.Note n = (TraceEvent.Note) e;
                line(n.stage().name(), "note (" + n.kind() + "): " + oneLine(n.message()));
            }
        }
        out.println("  stages: " + result.trace().stages());
        StringBuilder end = new StringBuilder("  => " + result.status());
        if (result instanceof AgentResult.Failed) {
            AgentResult.Failed f = (AgentResult.Failed) result;
            end.append(" (").append(f.kind()).append(f.errorCategory().map(c -> ", " + c).orElse("")).append("): ")
                    .append(oneLine(f.message()));
        }
        end.append(" | corrections ").append(result.trace().correctionCount()).append(", model calls ")
                .append(result.trace().modelCallCount());
        out.println(end);
        if (showTable && result instanceof AgentResult.Answered) {
            printTable(((AgentResult.Answered) result).table());
        }
        out.println();
    }

    private void printTable(ResultTable t) {
        out.println("     " + String.join(" | ", t.columnNames()));
        List<List<Object>> rows = t.rows();
        for (int i = 0; i < Math.min(MAX_ROWS_SHOWN, rows.size()); i++) {
            StringBuilder sb = new StringBuilder("     ");
            for (int j = 0; j < rows.get(i).size(); j++) {
                sb.append(j > 0 ? " | " : "").append(rows.get(i).get(j));
            }
            out.println(sb);
        }
        if (rows.size() > MAX_ROWS_SHOWN) {
            out.println("     … " + (rows.size() - MAX_ROWS_SHOWN) + " more row(s)");
        }
    }

    private void line(String stage, String text) {
        out.printf("  %-9s %s%n", stage, text);
    }

    static String oneLine(String s) {
        String t = s.replaceAll("\\s+", " ").trim();
        return t.length() > 220 ? t.substring(0, 220) + "…" : t;
    }
}
