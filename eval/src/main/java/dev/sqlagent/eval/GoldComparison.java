package dev.sqlagent.eval;

import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.verify.ResultEquivalence;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.Select;

/**
 * Compares a result with the gold SQL's result as Spider's execution evaluation does: through
 * {@link ResultEquivalence} (rows as multisets, columns under any permutation, numbers within a
 * tolerance), with row order significant if and only if the gold SQL has a top-level {@code ORDER BY}.
 * Pure and thread-safe.
 */
public final class GoldComparison {

    private static final ResultEquivalence EQUIVALENCE = ResultEquivalence.standard();
    private static final ResultEquivalence POSITIONAL = ResultEquivalence.positional();
    private static final Pattern ORDER_BY = Pattern.compile("(?i)\\border\\s+by\\b");
    private static final Pattern PARENTHESISED = Pattern.compile("\\([^()]*\\)");
    private static final Pattern QUOTED = Pattern.compile("'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"");

    private GoldComparison() {
    }

    /**
     * Whether row order matters for a gold SQL: it has an {@code ORDER BY} outside every subquery.
     * Parsed with JSqlParser; SQL it cannot parse is judged textually, ignoring quoted text and
     * parenthesised parts.
     *
     * @param goldSql the reference SQL
     * @return whether the comparison must respect row order
     */
    public static boolean hasTopLevelOrderBy(String goldSql) {
        Objects.requireNonNull(goldSql, "goldSql");
        try {
            Statement st = CCJSqlParserUtil.parse(goldSql);
            if (st instanceof Select) {
                List<OrderByElement> order = ((Select) st).getOrderByElements();
                if (order != null && !order.isEmpty()) {
                    return true;
                }
                if (st instanceof net.sf.jsqlparser.statement.select.PlainSelect
                        || st instanceof net.sf.jsqlparser.statement.select.SetOperationList) {
                    return false;
                }
            }
        } catch (JSQLParserException | RuntimeException e) {
            // fall through to the textual rule
        }
        String s = QUOTED.matcher(goldSql).replaceAll("''");
        String before;
        do {
            before = s;
            s = PARENTHESISED.matcher(s).replaceAll(" ");
        } while (!s.equals(before));
        return ORDER_BY.matcher(s).find();
    }

    /**
     * Compares a result with the gold result as Spider does: rows as multisets (or in order when
     * {@code ordered}), columns under any permutation, numbers within a tolerance.
     *
     * @param gold the gold SQL's result
     * @param predicted the result to judge
     * @param ordered whether row order matters, see {@link #hasTopLevelOrderBy}
     * @return whether the predicted result is the same answer
     */
    public static boolean matches(ResultTable gold, ResultTable predicted, boolean ordered) {
        return EQUIVALENCE.equivalent(gold, predicted, ordered);
    }

    /**
     * The positional comparison: as {@link #matches} but columns are compared in place, never permuted
     * (a prediction selecting {@code age, name} where the gold selects {@code name, age} is wrong).
     *
     * @param gold the gold SQL's result
     * @param predicted the result to judge
     * @param ordered whether row order matters, see {@link #hasTopLevelOrderBy}
     * @return whether the predicted result is the same answer, column for column
     */
    public static boolean matchesPositional(ResultTable gold, ResultTable predicted, boolean ordered) {
        return POSITIONAL.equivalent(gold, predicted, ordered);
    }
}
