package dev.sqlagent.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * The guard's resolution of names, split out of {@link AstAnalyzer}: a column reference resolved the way the
 * engine binds it, innermost query first, qualified or not; a star expanded over its FROM items; a bare name
 * that is a whole row; a system column. Each read is checked against the policy as it is found (a denied
 * column, a whole row of a table with denied columns, a system column the policy does not name) and
 * remembered on its source for the row filter and the verdict. Closed world: a name that resolves to nothing
 * known is refused as {@link ViolationType#UNKNOWN_COLUMN}, never guessed at. It reads and writes the
 * analysis's scopes ({@link AstAnalyzer#frame}, {@link AstAnalyzer#names}) and reports through it.
 */
final class ColumnNames {

    private final AstAnalyzer a;

    ColumnNames(AstAnalyzer analysis) {
        this.a = analysis;
    }

    /**
     * Resolves one column reference the way the engine does, innermost query first, and checks what it
     * resolves to: a denied column, a system column, a whole row. Closed world: a name that resolves to
     * nothing known is refused as {@link ViolationType#UNKNOWN_COLUMN}, never guessed at.
     *
     * @param column the reference
     * @param parent the node holding it
     * @param keyword whether the parser read it as a keyword (a date unit) that the engine may read as a column
     */
    void resolve(Column column, Object parent, boolean keyword) {
        if (column.getColumnName() == null) {
            return;
        }
        String name = NameScope.fold(column.getColumnName(), a.dialect);
        Table q = column.getTable();
        if ((q == null || q.getName() == null) && a.isLambdaParameter(name)) {
            return;
        }
        if (a.frame == null) {
            unknown(column, "a name outside any query");
            return;
        }
        if (q != null && q.getName() != null) {
            if (a.names.qualifierDependsOnSettings(a.frame, q)) {
                unknown(column, caseDependent(q.getName()));
                return;
            }
            resolveQualified(column, q, name);
            return;
        }
        if (a.names.columnDependsOnSettings(a.frame, column.getColumnName())) {
            unknown(column, caseDependent(column.getColumnName()));
            return;
        }
        boolean maybe = false;
        for (NameScope.Frame f = a.frame; f != null; f = f.parent) {
            List<NameScope.Source> found = new ArrayList<>();
            for (NameScope.Source s : f.sources) {
                if (s.has(name) || s.hidden(name)) {
                    found.add(s);
                } else if (s.columns == null) {
                    // may have it: checked, and the search goes on outwards
                    read(s, name, column);
                    maybe = true;
                }
            }
            if (!found.isEmpty()) {
                for (NameScope.Source s : found) {
                    read(s, name, column);
                }
                return;
            }
        }
        if (maybe || a.frame.selectAliases.contains(name)) {
            return;
        }
        for (NameScope.Frame f = a.frame; f != null; f = f.parent) {
            List<NameScope.Source> rows = new ArrayList<>();
            for (NameScope.Source s : f.sources) {
                if (name.equals(s.alias) || s.alias == null && name.equals(s.tableName)) {
                    rows.add(s);
                }
            }
            if (!rows.isEmpty() && NameScope.hasRowValues(a.dialect)) {
                for (NameScope.Source s : rows) {
                    wholeRow(s, column.toString(), "the engine reads " + name + " as the whole row of "
                            + s.describe());
                }
                return;
            }
        }
        if (NameScope.systemColumns(a.dialect).contains(name)) {
            for (NameScope.Frame f = a.frame; f != null; f = f.parent) {
                boolean any = false;
                for (NameScope.Source s : f.sources) {
                    if (s.key != null) {
                        systemColumn(s, name, column);
                        any = true;
                    }
                }
                if (any) {
                    return;
                }
            }
        }
        if ((keyword || parent instanceof Function || parent instanceof AnalyticExpression)
                && NameScope.UNIT_WORDS.contains(name)) {
            return;
        }
        if (column.getColumnName().startsWith("\"") && a.engine.doubleQuotedMayBeString()) {
            // SQLite reads a double-quoted name no column has as a string; MySQL and MariaDB read it as one always
            return;
        }
        unknown(column, "no column " + name + " in " + visible());
    }

    /** The message for a name the engine's identifier settings (unseen by the guard) may bind elsewhere. */
    private String caseDependent(String name) {
        return "which FROM item " + name + " names depends on how the database compares names of another case "
                + "or quoting (H2's DATABASE_TO_UPPER/DATABASE_TO_LOWER/CASE_INSENSITIVE_IDENTIFIERS, MySQL's "
                + "lower_case_table_names); spell each name as it is declared";
    }

    private void resolveQualified(Column column, Table q, String name) {
        for (NameScope.Frame f = a.frame; f != null; f = f.parent) {
            List<NameScope.Source> found = a.names.qualifiedAll(f.sources, q);
            if (found.isEmpty()) {
                continue;
            }
            for (NameScope.Source s : found) {
                if (s.columns == null || s.has(name) || s.hidden(name)) {
                    read(s, name, column);
                } else if (s.key != null && NameScope.systemColumns(a.dialect).contains(name)) {
                    systemColumn(s, name, column);
                } else if (s.key != null && NameScope.hasRowValues(a.dialect)
                        && a.policy.deniedColumns().containsKey(s.key)) {
                    // attribute notation: PostgreSQL reads t.f as f(t), over the whole row
                    a.violation(ViolationType.WHOLE_ROW, column.toString(), "the engine reads " + column
                            + " as the call " + name + "(" + q.getName() + ") over the whole row of " + s.key
                            + ", which has denied columns");
                } else {
                    unknown(column, "no column " + name + " in " + s.describe());
                }
            }
            return;
        }
        if (q.getSchemaName() == null && a.isLambdaParameter(NameScope.fold(q.getName(), a.dialect))) {
            // a field of a lambda's parameter (DuckDB tries the tables first, as above)
            return;
        }
        if (a.engine.dottedFieldAccess() && q.getSchemaName() != null && q.getDatabaseName() == null) {
            // DuckDB reads a.b.c, when no table a.b is in scope, as field c of column b of table a: a read of b
            Column struct = new Column(new Table(q.getSchemaName()), q.getName());
            resolveQualified(struct, struct.getTable(), NameScope.fold(q.getName(), a.dialect));
            return;
        }
        unknown(column, "no table or alias " + q.getFullyQualifiedName() + " in " + visible());
    }

    /** A star in a select list expands over its tables; anywhere else it is a whole-row value. */
    void star(AllColumns star, Object parent) {
        if (a.frame == null) {
            return;
        }
        List<NameScope.Source> over;
        if (star instanceof AllTableColumns) {
            Table t = ((AllTableColumns) star).getTable();
            if (a.names.qualifierDependsOnSettings(a.frame, t)) {
                unknown(star, caseDependent(t.getName()));
                return;
            }
            over = List.of();
            for (NameScope.Frame f = a.frame; f != null && over.isEmpty(); f = f.parent) {
                over = a.names.qualifiedAll(f.sources, t);
            }
            if (over.isEmpty()) {
                unknown(star, "no table or alias " + (t == null ? "" : t.getFullyQualifiedName()) + " in " + visible());
                return;
            }
        } else {
            over = a.frame.sources;
        }
        boolean expansion = parent instanceof SelectItem;
        if (expansion && !over.isEmpty() && over.stream().allMatch(s -> s.key == null && s.columns != null)) {
            a.namedStars.add(star);
        }
        for (NameScope.Source s : over) {
            if (expansion) {
                s.all = true;
                if (s.key != null && s.columns != null && a.policy.deniedColumns().containsKey(s.key)) {
                    a.violation(ViolationType.COLUMN_DENIED, star.toString(), "* would read the denied columns of "
                            + s.key);
                }
            } else {
                wholeRow(s, star.toString(), star + " is the whole row of " + s.describe());
            }
        }
    }

    /** A read of a whole row: every column of a real table, refused where the table has denied columns. */
    private void wholeRow(NameScope.Source s, String fragment, String what) {
        s.all = true;
        if (s.key != null && a.policy.deniedColumns().containsKey(s.key)) {
            a.violation(ViolationType.WHOLE_ROW, fragment, what + ", which has denied columns "
                    + new java.util.TreeSet<>(a.policy.deniedColumns().get(s.key)));
        }
    }

    /** A read of one column of a source: refused when denied, remembered for the row filter and the verdict. */
    void read(NameScope.Source s, String key, Object node) {
        if (s.key == null) {
            return;
        }
        String name = s.entry(key);
        if (s.hidden(name)) {
            // an FTS5 table's hidden column: its own name stands for the whole row, rank is computed from it
            wholeRow(s, node.toString(), name + " is a hidden column of FTS5 table " + s.key
                    + ", computed from its whole row");
            return;
        }
        Set<String> denied = a.policy.deniedColumns().getOrDefault(s.key, Set.of());
        // a quoted name of another case is the denied column too where a setting makes names ignore case
        if (denied.contains(name) || denied.contains(NameScope.anyCase(name))) {
            a.violation(ViolationType.COLUMN_DENIED, node.toString(), "column is denied: " + s.key + "." + NameScope.anyCase(name));
        } else if (s.columns != null && node instanceof Column) {
            s.read.putIfAbsent(name, ((Column) node).getColumnName());
        }
    }

    /** A system column: refused unless the policy names it; a row-id alias stays refused next to denied columns. */
    private void systemColumn(NameScope.Source s, String name, Object node) {
        if (!a.policy.allowedSystemColumns().contains(name)) {
            a.violation(ViolationType.SYSTEM_COLUMN, node.toString(), "system column " + name + " of " + s.key
                    + " is not allowed");
        } else if (SqlGuard.PSEUDO_COLUMNS.contains(name) && a.policy.deniedColumns().containsKey(s.key)) {
            a.violation(ViolationType.COLUMN_DENIED, node.toString(), name + " is an alias of the integer primary key of "
                    + s.key + ", which has denied columns");
        }
    }

    private void unknown(Object node, String message) {
        a.violation(ViolationType.UNKNOWN_COLUMN, node.toString(), message);
    }

    /** What a name could have named here, for the message. */
    private String visible() {
        List<String> out = new ArrayList<>();
        for (NameScope.Frame f = a.frame; f != null; f = f.parent) {
            for (NameScope.Source s : f.sources) {
                out.add(s.describe());
            }
        }
        return out.isEmpty() ? "the query (it reads no table)" : String.join(", ", out);
    }
}
