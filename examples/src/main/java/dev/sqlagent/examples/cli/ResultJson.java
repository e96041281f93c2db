package dev.sqlagent.examples.cli;

import dev.sqlagent.AgentResult;
import java.io.PrintStream;

/**
 * One question's JSON line for {@code demo --json} and {@code ask --json}: the library's own form of the
 * result ({@link AgentResult#toJson()}: {@code question}, {@code status}, {@code corrections},
 * {@code llm_calls}, {@code sql}, {@code error_category}, {@code failure_kind}, {@code rows},
 * {@code violations}, {@code tokens}, {@code hand_off}, {@code stages}, {@code executed_sql},
 * {@code columns}, {@code data}, {@code truncated}, {@code message}, {@code question_id}), then the
 * command's own fields.
 */
final class ResultJson {

    private ResultJson() {
    }

    /**
     * Prints the result's JSON object ({@link AgentResult#toJson(int)}: with {@code row_count}, {@code row_cap},
     * {@code row_cap_reached}, and {@code truncated} true at the cap) with the command's {@code extra} fields
     * appended, on one line.
     */
    static void print(PrintStream out, AgentResult r, int rowCap, JsonLines.Body extra) {
        String result = r.toJson(rowCap);
        String more = JsonLines.object(extra);
        // both are objects written by jackson-core: splice the command's fields into the result's object
        out.println(more.equals("{}") ? result
                : result.substring(0, result.length() - 1) + "," + more.substring(1));
        out.flush();
    }
}
