package dev.sqlagent.choose;

import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.internal.LenientJson;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The judge's side-by-side view of the finalists: the groups whose scores came within
 * {@link #MARGIN} of the best ({@link #finalists}), each shown as its SQL and a sample of its result
 * ({@link #render}), and the reading of the judge's pick from its reply ({@link #parseChoice}). The
 * judge then picks among whole answers instead of reviewing one result alone. Pure and thread-safe.
 */
public final class FinalistJudge {

    /** A group is a finalist when its score is within this of the best (less than one vote). */
    public static final double MARGIN = 1.0;
    /** Most finalists shown. */
    public static final int MAX_FINALISTS = 4;
    /** Rows of each result shown. */
    public static final int ROWS_SHOWN = 5;
    /** Longest value shown, in characters. */
    public static final int VALUE_CHARS = 60;

    private static final Pattern BARE_NUMBER = Pattern.compile("^\\s*(?:answer\\s*)?#?(\\d+)\\b", Pattern.CASE_INSENSITIVE);

    private FinalistJudge() {
    }

    /**
     * Picks the groups worth showing the judge side by side.
     *
     * @param choice the chooser's choice
     * @return the finalist groups, best first: those within {@link #MARGIN} of the best score, at most
     *     {@link #MAX_FINALISTS}; a single group means there is nothing to ask the judge
     */
    public static List<CandidateChooser.GroupScore> finalists(CandidateChooser.Choice choice) {
        Objects.requireNonNull(choice, "choice");
        List<CandidateChooser.GroupScore> groups = choice.groups();
        double best = groups.get(0).score();
        int n = 1;
        while (n < groups.size() && n < MAX_FINALISTS && groups.get(n).score() > best - MARGIN) {
            n++;
        }
        return groups.subList(0, n);
    }

    /**
     * One finalist as shown to the judge.
     *
     * @param sql the SQL of the group's preferred member
     * @param table its result
     */
    public record Finalist(String sql, ResultTable table) {
        /**
         * Checks the parts.
         *
         * @param sql the SQL of the group's preferred member
         * @param table its result
         */
        public Finalist {
            Objects.requireNonNull(sql, "sql");
            Objects.requireNonNull(table, "table");
        }
    }

    /**
     * Renders the finalists side by side for the judge's prompt.
     *
     * @param finalists the finalists, numbered from 1 in this order
     * @return the answers side by side: for each, its number, SQL, row count, columns and first rows
     */
    public static String render(List<Finalist> finalists) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < finalists.size(); i++) {
            Finalist f = finalists.get(i);
            ResultTable t = f.table();
            sb.append("Answer ").append(i + 1).append(":\nSQL: ").append(f.sql().strip()).append("\nResult: ")
                    .append(t.rowCount()).append(t.rowCount() == 1 ? " row" : " rows")
                    .append(t.truncated() ? " (cut)" : "").append("; columns ").append(t.columnNames()).append('\n');
            for (int r = 0; r < Math.min(ROWS_SHOWN, t.rowCount()); r++) {
                sb.append("  ");
                List<Object> row = t.rows().get(r);
                for (int c = 0; c < row.size(); c++) {
                    String v = String.valueOf(row.get(c));
                    sb.append(c == 0 ? "" : " | ").append(v.length() > VALUE_CHARS ? v.substring(0, VALUE_CHARS) + "…" : v);
                }
                sb.append('\n');
            }
            if (t.rowCount() > ROWS_SHOWN) {
                sb.append("  … ").append(t.rowCount() - ROWS_SHOWN).append(" more\n");
            }
            sb.append('\n');
        }
        return sb.toString().stripTrailing();
    }

    /**
     * Reads the judge's pick: {@code "choice"} (or {@code "answer"}, {@code "best"}) of the first JSON
     * object, as a number or text such as {@code "Answer 2"}; failing JSON, a reply that starts with a
     * number.
     *
     * @param reply the judge's reply
     * @param finalists how many finalists were shown
     * @return the 0-based index of the finalist picked; empty when the reply names none of them
     */
    public static OptionalInt parseChoice(String reply, int finalists) {
        if (reply == null) {
            return OptionalInt.empty();
        }
        Optional<Map<String, Object>> o = LenientJson.firstObject(reply);
        String text = null;
        if (o.isPresent()) {
            for (String key : List.of("choice", "answer", "best", "pick")) {
                if (o.get().containsKey(key)) {
                    text = LenientJson.text(o.get().get(key));
                    break;
                }
            }
        } else {
            text = reply;
        }
        if (text == null) {
            return OptionalInt.empty();
        }
        Matcher m = Pattern.compile("(\\d+)").matcher(text);
        if (o.isEmpty()) {
            m = BARE_NUMBER.matcher(text);
        }
        if (!m.find()) {
            return OptionalInt.empty();
        }
        try {
            int n = Integer.parseInt(m.group(1));
            return n >= 1 && n <= finalists ? OptionalInt.of(n - 1) : OptionalInt.empty();
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
