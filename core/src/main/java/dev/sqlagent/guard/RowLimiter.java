package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import java.util.List;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.Fetch;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.Offset;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.Top;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Puts a row cap on the outermost query in the dialect's own form: {@code LIMIT n} (SQLite, H2,
 * PostgreSQL, MySQL, MariaDB), {@code FETCH FIRST n ROWS ONLY} (Oracle, ANSI) or {@code TOP n} (SQL
 * Server). A missing cap is added, a larger one or one that is not a plain number is replaced, a
 * smaller one kept; {@code WITH TIES} and {@code PERCENT}, which can return more rows, are dropped.
 */
final class RowLimiter {

    private RowLimiter() {
    }

    /** {@return the statement to run: the same object, or a wrapper around it (SQL Server set operations)} */
    static Select apply(Select select, Dialect dialect, int maxRows) {
        if (select instanceof SetOperationList) {
            liftTrailingClauses((SetOperationList) select);
        }
        boolean capped = false;
        if (select instanceof PlainSelect && ((PlainSelect) select).getTop() != null) {
            capTop(((PlainSelect) select).getTop(), maxRows);
            capped = true;
        }
        if (select.getLimit() != null) {
            capLimit(select.getLimit(), maxRows);
            capped = true;
        }
        if (select.getFetch() != null) {
            select.setFetch(fetch(Math.min(maxRows, smallNumber(select.getFetch().getExpression(),
                    fetchRowCount(select.getFetch()), maxRows))));
            capped = true;
        }
        if (capped) {
            return select;
        }
        switch (Engines.of(dialect).guard().rowCap()) {
            case TOP:
                if (select instanceof PlainSelect) {
                    Top top = new Top();
                    top.setExpression(new LongValue(maxRows));
                    ((PlainSelect) select).setTop(top);
                    return select;
                }
                if (select.getOrderByElements() != null && !select.getOrderByElements().isEmpty()) {
                    if (select.getOffset() == null) {
                        Offset offset = new Offset();
                        offset.setOffset(new LongValue(0));
                        offset.setOffsetParam("ROWS");
                        select.setOffset(offset);
                    }
                    Fetch next = fetch(maxRows);
                    next.setFetchParamFirst(false);
                    select.setFetch(next);
                    return select;
                }
                return wrapWithTop(select, maxRows);
            case FETCH_FIRST:
                select.setFetch(fetch(maxRows));
                return select;
            default:
                Limit limit = new Limit();
                limit.setRowCount(new LongValue(maxRows));
                select.setLimit(limit);
                return select;
        }
    }

    /**
     * The parser hangs a trailing {@code ORDER BY}/{@code LIMIT}/{@code OFFSET}/{@code FETCH} of a set
     * operation on its last, unparenthesised query ({@code A UNION B LIMIT 5}); the engines apply it to
     * the whole set operation. Moved there, the tree reads as the engine does (and prints the same text),
     * so the row cap sees the limit that really bounds the result.
     */
    private static void liftTrailingClauses(SetOperationList set) {
        List<Select> selects = set.getSelects();
        if (selects == null || selects.isEmpty() || !(selects.get(selects.size() - 1) instanceof PlainSelect)) {
            return;
        }
        PlainSelect last = (PlainSelect) selects.get(selects.size() - 1);
        boolean setHasTail = set.getLimit() != null || set.getOffset() != null || set.getFetch() != null
                || set.getOrderByElements() != null && !set.getOrderByElements().isEmpty();
        if (setHasTail) {
            return;
        }
        if (last.getOrderByElements() != null && !last.getOrderByElements().isEmpty()) {
            set.setOrderByElements(last.getOrderByElements());
            last.setOrderByElements(null);
        }
        set.setLimit(last.getLimit());
        last.setLimit(null);
        set.setOffset(last.getOffset());
        last.setOffset(null);
        set.setFetch(last.getFetch());
        last.setFetch(null);
    }

    private static Select wrapWithTop(Select select, int maxRows) {
        List<WithItem<?>> with = select.getWithItemsList();
        select.setWithItemsList(null);
        ParenthesedSelect inner = new ParenthesedSelect();
        inner.setSelect(select);
        inner.setAlias(new Alias("sqlagent_rows", true));
        PlainSelect outer = new PlainSelect();
        outer.addSelectItems(List.of(new SelectItem<>(new AllColumns())));
        outer.setFromItem(inner);
        Top top = new Top();
        top.setExpression(new LongValue(maxRows));
        outer.setTop(top);
        outer.setWithItemsList(with);
        return outer;
    }

    private static void capTop(Top top, int maxRows) {
        long n = top.isPercentage() ? Long.MAX_VALUE : smallNumber(top.getExpression(), -1, maxRows);
        top.setPercentage(false);
        top.setWithTies(false);
        top.setExpression(new LongValue(Math.min(n, maxRows)));
    }

    private static void capLimit(Limit limit, int maxRows) {
        // LIMIT ALL / LIMIT NULL are a non-number row count here, hence replaced
        long n = smallNumber(limit.getRowCount(), -1, maxRows);
        limit.setRowCount(new LongValue(Math.min(n, maxRows)));
    }

    /** {@code FETCH FIRST ROW ONLY} has no expression; its count is kept in the deprecated field. */
    @SuppressWarnings("deprecation")
    private static long fetchRowCount(Fetch fetch) {
        return fetch.getRowCount();
    }

    /** A non-negative plain number as written, else {@code Long.MAX_VALUE} (so the cap replaces it). */
    private static long smallNumber(Expression e, long fallback, int maxRows) {
        if (e instanceof LongValue) {
            try {
                long v = ((LongValue) e).getValue();
                return v < 0 ? maxRows : v;
            } catch (NumberFormatException tooBig) {
                return Long.MAX_VALUE;
            }
        }
        if (e == null && fallback >= 0) {
            return fallback;
        }
        return Long.MAX_VALUE;
    }

    private static Fetch fetch(long rows) {
        Fetch f = new Fetch();
        f.setExpression(new LongValue(rows));
        f.setFetchParamFirst(true);
        f.addFetchParameter("ROWS");
        f.addFetchParameter("ONLY");
        return f;
    }
}
