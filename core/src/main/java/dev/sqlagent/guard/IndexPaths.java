package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.MySQLIndexHint;
import net.sf.jsqlparser.schema.Table;

/**
 * Access paths ordered by forbidden data. A read through an index returns rows in the order of its key: a
 * query that reads only {@code id} from a table with an index on the denied {@code salary} may get them in
 * salary order (a covering index scan), and with it the ranking, through {@code LIMIT}/{@code OFFSET},
 * {@code GROUP_CONCAT}, {@code ROW_NUMBER() OVER ()} or the order of the answer itself. No denied column is
 * read, so no column grant stops it.
 *
 * <p>For every reference to a table with such an index ({@link GuardPolicy#orderingIndexes}), the guard
 * refuses an index hint that names one (or names an index it does not know, on a table with denied
 * columns), and writes the reference so that the engine cannot take that path: {@code IGNORE INDEX (…)} on
 * MariaDB and MySQL (which no {@code USE} or {@code FORCE} hint overrides), {@code USE INDEX (the other
 * indexes)} on H2, {@code NOT INDEXED} on SQLite. PostgreSQL has no hints: the statement is marked to run with
 * ordered index scans off ({@link dev.sqlagent.execution.SqlStatement#physicalOrder()}), and its engine check
 * counts the key of any index scan left in the plan as read. DuckDB reads tables in insertion order.
 */
final class IndexPaths {

    private IndexPaths() {
    }

    /**
     * The refusal of a table reference's index hint, or null.
     *
     * @param table the reference
     * @param key the table's key in the policy
     * @param policy the policy
     * @return the violation, or null when the hint (if any) names only indexes ordered by allowed columns
     */
    static Violation check(Table table, String key, GuardPolicy policy) {
        List<String> named = new ArrayList<>();
        MySQLIndexHint hint = table.getIndexHint();
        if (hint != null && hint.getIndexNames() != null) {
            named.addAll(hint.getIndexNames());
        }
        if (table.getSqlServerHints() != null && table.getSqlServerHints().getIndexName() != null) {
            named.add(table.getSqlServerHints().getIndexName());
        }
        if (named.isEmpty()) {
            return null;
        }
        Map<String, List<String>> known = policy.tableIndexes().get(key);
        boolean denied = policy.deniedColumns().containsKey(key);
        if (known == null) {
            return denied ? new Violation(ViolationType.COLUMN_DENIED, table.toString(), "an index hint on " + key
                    + ", which has denied columns and whose indexes the policy does not know: an index may order "
                    + "rows by a denied column") : null;
        }
        Set<String> ordering = policy.orderingIndexes(key);
        for (String n : named) {
            String name = Names.unquote(n);
            String found = null;
            for (String k : known.keySet()) {
                if (k.equalsIgnoreCase(name)) {
                    found = k;
                }
            }
            if (found != null && ordering.contains(found)) {
                return new Violation(ViolationType.COLUMN_DENIED, n, "index " + found + " of " + key
                        + " is ordered by a column the policy denies; its order would reveal it");
            }
            if (found == null && (denied || !ordering.isEmpty())) {
                return new Violation(ViolationType.COLUMN_DENIED, n, "no known index " + name + " on " + key
                        + ", which has indexes ordered by denied columns");
            }
        }
        return null;
    }

    /**
     * The refusal of a read of a table that the engine stores in the order of a primary key holding a denied
     * column (MariaDB and MySQL's InnoDB, SQLite, H2): every scan of it returns rows in that order, which no
     * hint changes.
     *
     * @param table the reference
     * @param key the table's key in the policy
     * @param policy the policy
     * @param dialect the engine
     * @return the violation, or null
     */
    static Violation storedInDeniedOrder(Table table, String key, GuardPolicy policy, Dialect dialect) {
        if (!Engines.of(dialect).guard().storedInPrimaryKeyOrder()
                || !policy.orderingIndexes(key).contains(GuardPolicy.PRIMARY_KEY)) {
            return null;
        }
        return new Violation(ViolationType.COLUMN_DENIED, table.toString(), key + " is stored in the order of its "
                + "primary key " + policy.tableIndexes().get(key).get(GuardPolicy.PRIMARY_KEY) + ", which holds a "
                + "column the policy denies: any read of it returns rows in that order");
    }

    /**
     * Writes a table reference so that the engine reads it through no index ordered by forbidden data,
     * keeping its own (checked) hint.
     *
     * @param table the reference, rewritten in place
     * @param key the table's key in the policy
     * @param policy the policy
     * @param dialect the engine
     */
    static void apply(Table table, String key, GuardPolicy policy, Dialect dialect) {
        Set<String> ordering = policy.orderingIndexes(key);
        if (ordering.isEmpty()) {
            return;
        }
        MySQLIndexHint own = table.getIndexHint();
        if (own instanceof Printed) {
            return; // the same reference seen twice
        }
        Set<String> avoided = new LinkedHashSet<>();
        for (String n : ordering) {
            if (!n.equals(GuardPolicy.PRIMARY_KEY)) {
                avoided.add(n);
            }
        }
        Set<String> others = new LinkedHashSet<>();
        Map<String, ?> indexes = policy.tableIndexes().get(key);
        for (String n : indexes == null ? Set.<String>of() : indexes.keySet()) {
            if (!ordering.contains(n) && !n.equals(GuardPolicy.PRIMARY_KEY)) {
                others.add(n);
            }
        }
        // PostgreSQL, DuckDB, others: no hint; the engine check refuses a plan through such an index
        String hint = Engines.of(dialect).guard().avoidIndexes(own != null, avoided, others);
        if (hint != null) {
            table.setHint(new Printed(own == null ? "" : own.toString(), hint));
        }
    }

    /** A hint printed as given: the statement's own, checked, then the guard's. */
    private static final class Printed extends MySQLIndexHint {
        private static final long serialVersionUID = 1L;
        private final String text;

        Printed(String own, String added) {
            super("IGNORE", "INDEX", List.of());
            this.text = own + added;
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
