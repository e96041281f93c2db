package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import dev.sqlagent.internal.Identifiers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.LateralSubSelect;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * The name-resolution model of the closed-world guard: what each FROM item offers to the names of a
 * statement ({@link Source}), which items a name can see at a given place ({@link Frame}), and the
 * output columns of a query (for a derived table or a CTE). Engines resolve a name to the innermost
 * query whose FROM items have it, and an outer query only when no inner item has it; a derived table in
 * FROM sees the queries around its query but not its siblings, a LATERAL one its preceding siblings too,
 * a join's ON condition the items joined so far. The guard resolves by the same rules, so that it checks
 * the column the engine will read.
 */
final class NameScope {

    private NameScope() {
    }

    /** The CTEs in lexical scope (by key), with their output columns as spelled (null when they cannot be known). */
    static final class Ctes {
        private final Ctes outer;
        private final Map<String, List<String>> columns = new HashMap<>();

        Ctes(Ctes outer) {
            this.outer = outer;
        }

        boolean has(String name) {
            for (Ctes s = this; s != null; s = s.outer) {
                if (s.columns.containsKey(name)) {
                    return true;
                }
            }
            return false;
        }

        List<String> columnsOf(String name) {
            for (Ctes s = this; s != null; s = s.outer) {
                if (s.columns.containsKey(name)) {
                    return s.columns.get(name);
                }
            }
            return null;
        }

        void add(String name, List<String> cols) {
            columns.put(name, cols);
        }

        /**
         * Whether a CTE in scope has a name that is {@code lower} ignoring ASCII case and quoting but another
         * name by the dialect's rule (its key is not {@code key}).
         */
        boolean hasOtherCase(String lower, String key) {
            for (Ctes s = this; s != null; s = s.outer) {
                for (String k : s.columns.keySet()) {
                    String bare = k.startsWith(Identifiers.UNMATCHABLE) ? k.substring(1) : k;
                    if (Identifiers.lower(bare).equals(lower) && !k.equals(key)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /**
     * One FROM item as name resolution sees it. Names are held twice: as spelled (a quoted name with its
     * quotes, a policy entry bare), and as keys under the dialect's rule ({@link Identifiers}), which is
     * what the guard compares by; the spellings let a binding be recomputed under the rules a setting the
     * guard cannot see may switch to.
     */
    static final class Source {
        /** The FROM item: a {@link Table}, a derived table, a VALUES list. */
        final Object node;
        /** The alias, folded by the table-alias rule; null when none. */
        final String alias;
        /** A table's (or CTE's) own name, folded by the table-alias rule; null for a derived table. */
        final String tableName;
        /** The policy key of a real allowed table; null for CTEs, derived tables and refused tables. */
        final String key;
        /** Output columns, folded; null when they cannot be known (a table whose columns the policy lacks). */
        final List<String> columns;
        /** The alias, table name and output columns as spelled. */
        final String spelledAlias;
        final String spelledTable;
        final List<String> spelled;
        /** Columns of a real table this statement reads through this item: folded name to a spelling as written. */
        final Map<String, String> read = new java.util.LinkedHashMap<>();
        /** Whether every column of a real table is read (a star, a whole-row reference, a natural join). */
        boolean all;
        /**
         * For a real SQLite FTS5 table ({@link GuardPolicy#fts5Tables()}): its name as SQLite names its hidden
         * column that stands for the whole row (the table's own, folded); null for any other source.
         */
        String fts5;

        /**
         * @param node the FROM item
         * @param alias its alias as spelled, or null
         * @param tableName its table's or CTE's name as spelled, or null
         * @param key the policy key of a real allowed table, or null
         * @param columns its output columns as spelled, or null when not known
         * @param dialect the dialect whose rules fold them
         */
        Source(Object node, String alias, String tableName, String key, List<String> columns, Dialect dialect) {
            this.node = node;
            this.spelledAlias = alias;
            this.spelledTable = tableName;
            this.spelled = columns;
            Identifiers.Rule tables = Identifiers.tableAliases(dialect);
            this.alias = alias == null ? null : Names.fold(alias, tables);
            this.tableName = tableName == null ? null : Names.fold(tableName, tables);
            this.key = key;
            this.columns = columns == null ? null : folded(columns, Identifiers.columns(dialect));
        }

        private static List<String> folded(List<String> spelled, Identifiers.Rule rule) {
            List<String> out = new ArrayList<>(spelled.size());
            for (String c : spelled) {
                out.add(Names.fold(c, rule));
            }
            return out;
        }

        /** Whether it has a column spelled {@code name} under {@code rule}; false when its columns are not known. */
        boolean has(String name, Identifiers.Rule rule) {
            if (spelled == null) {
                return false;
            }
            String k = Names.fold(name, key != null ? Identifiers.Rule.INSENSITIVE : rule);
            for (String c : spelled) {
                if (Names.fold(c, rule).equals(k)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Whether it has the column of this key. A real table's columns come from the policy, lower case, which
         * does not say in what case the database declared them: a quoted name of another case ({@code "Salary"})
         * may be one of them, and is taken for it (only a real table can be bound so; no real table has such a
         * name under the strict rule, so no other binding is lost).
         */
        boolean has(String column) {
            return columns != null && (columns.contains(column) || key != null && columns.contains(anyCase(column)));
        }

        /**
         * {@return the policy entry a key names on a real table: itself, or the lower case of an odd-case quoted
         *     name}
         */
        String entry(String column) {
            return columns != null && !columns.contains(column) && columns.contains(anyCase(column))
                    ? anyCase(column) : column;
        }

        /**
         * Whether a folded name is a hidden column of this FTS5 table: the table's own name (its whole row, to
         * {@code MATCH} and the auxiliary functions) or {@code rank}; never on any other source. FTS5 reserves
         * both names, so no declared column has them (a driver may list them among the columns all the same).
         */
        boolean hidden(String column) {
            return fts5 != null && (column.equals(fts5) || column.equals("rank"));
        }

        String describe() {
            String name = key != null ? key : spelledTable != null ? spelledTable : "derived table";
            return alias == null || alias.equals(tableName) ? name : name + " " + spelledAlias;
        }
    }

    /**
     * The FROM items a name can see at one place, and the frame around them. A join's ON condition sees a
     * restricted frame: the items joined so far. The contexts map says in which frame each derived table
     * and join of this query is read.
     */
    static final class Frame {
        static final Frame EMPTY = new Frame(null, List.of(), Set.of(), new IdentityHashMap<>());

        final Frame parent;
        final List<Source> sources;
        final Set<String> selectAliases;
        final IdentityHashMap<Object, Frame> contexts;

        Frame(Frame parent, List<Source> sources, Set<String> selectAliases, IdentityHashMap<Object, Frame> contexts) {
            this.parent = parent;
            this.sources = sources;
            this.selectAliases = selectAliases;
            this.contexts = contexts;
        }

        Frame restricted(List<Source> visible) {
            return new Frame(parent, List.copyOf(visible), Set.of(), contexts);
        }
    }

    /** Builds frames and output columns for one statement under one policy. */
    static final class Builder {
        private final GuardPolicy policy;
        private final Dialect dialect;

        Builder(GuardPolicy policy, Dialect dialect) {
            this.policy = policy;
            this.dialect = dialect;
        }

        /**
         * The frame of a plain select: its FROM items, and where each derived table and join of it is read.
         *
         * @param ps the select
         * @param ctes the CTEs in scope
         * @param parent the frame around it (null at the top)
         */
        Frame frame(PlainSelect ps, Ctes ctes, Frame parent) {
            IdentityHashMap<Object, Frame> contexts = new IdentityHashMap<>();
            List<Source> sources = new ArrayList<>();
            Frame outer = parent == null ? Frame.EMPTY : parent;
            add(ps.getFromItem(), ctes, sources, contexts, outer);
            if (ps.getJoins() != null) {
                for (Join j : ps.getJoins()) {
                    if (j == null) {
                        continue;
                    }
                    add(j.getFromItem(), ctes, sources, contexts, outer);
                    contexts.put(j, new Frame(parent, List.copyOf(sources), Set.of(), contexts));
                }
                if (Engines.of(dialect).guard().joinConditionsSeeWholeFrom()) {
                    // SQLite moves ON terms into WHERE: they see every item of the FROM clause
                    for (Join j : ps.getJoins()) {
                        if (j != null) {
                            contexts.put(j, new Frame(parent, List.copyOf(sources), Set.of(), contexts));
                        }
                    }
                }
            }
            Set<String> aliases = new LinkedHashSet<>();
            if (ps.getSelectItems() != null) {
                for (SelectItem<?> item : ps.getSelectItems()) {
                    if (item != null && item.getAlias() != null && item.getAlias().getName() != null) {
                        aliases.add(Names.fold(item.getAlias().getName(), dialect));
                    }
                }
            }
            return new Frame(parent, sources, aliases, contexts);
        }

        private void add(FromItem item, Ctes ctes, List<Source> sources, IdentityHashMap<Object, Frame> contexts,
                         Frame outer) {
            add(item, ctes, sources, 0, contexts, outer);
        }

        /**
         * @param first where the items of the innermost parenthesised join around {@code item} begin in
         *     {@code sources} (0 outside one): the only siblings an {@code UNNEST} in it sees
         */
        private void add(FromItem item, Ctes ctes, List<Source> sources, int first,
                         IdentityHashMap<Object, Frame> contexts, Frame outer) {
            if (item == null) {
                return;
            }
            if (item instanceof Table t) {
                sources.add(tableSource(t, ctes));
            } else if (item instanceof LateralSubSelect lateral) {
                contexts.put(lateral, new Frame(outer == Frame.EMPTY ? null : outer, List.copyOf(sources), Set.of(),
                        contexts));
                sources.add(derived(lateral, lateral.getAlias(), lateral.getSelect(), ctes));
            } else if (item instanceof ParenthesedSelect derived) {
                contexts.put(derived, outer);
                sources.add(derived(derived, derived.getAlias(), derived.getSelect(), ctes));
            } else if (item instanceof ParenthesedFromItem group) {
                FromItem inner = group.getFromItem();
                if (inner instanceof Values values) {
                    // its rows see the queries around this one, not the items beside it (read only where the engine
                    // reads a VALUES list in FROM: EngineGuard.valuesInFrom)
                    contexts.put(group, outer);
                    sources.add(new Source(group, aliasOf(group.getAlias()), null, null,
                            aliasColumns(group.getAlias(), valuesColumns(values)), dialect));
                    return;
                }
                int start = sources.size();
                add(inner, ctes, sources, start, contexts, outer);
                if (group.getJoins() != null) {
                    for (Join j : group.getJoins()) {
                        if (j == null) {
                            continue;
                        }
                        add(j.getFromItem(), ctes, sources, start, contexts, outer);
                        contexts.put(j, new Frame(outer == Frame.EMPTY ? null : outer,
                                List.copyOf(sources.subList(start, sources.size())), Set.of(), contexts));
                    }
                }
                if (group.getAlias() != null) {
                    List<String> all = new ArrayList<>();
                    for (Source s : sources.subList(start, sources.size())) {
                        if (s.columns == null) {
                            all = null;
                            break;
                        }
                        all.addAll(s.spelled);
                    }
                    sources.add(new Source(group, aliasOf(group.getAlias()), null, null,
                            aliasColumns(group.getAlias(), all), dialect));
                }
            } else if (item instanceof Values values) {
                sources.add(new Source(values, aliasOf(values.getAlias()), null, null,
                        aliasColumns(values.getAlias(), valuesColumns(values)), dialect));
            } else if (item instanceof TableFunction tf && Engines.of(dialect).guard().expandsArguments(tf)) {
                // Trino's UNNEST(…): its arguments see the items before it, as a LATERAL derived table's body does;
                // its columns are the names its alias lists, and no others (unnamed without a list)
                contexts.put(tf, new Frame(outer == Frame.EMPTY ? null : outer,
                        List.copyOf(sources.subList(first, sources.size())), Set.of(), contexts));
                sources.add(new Source(tf, aliasOf(tf.getAlias()), null, null,
                        aliasColumns(tf.getAlias(), List.of()), dialect));
            } else if (item instanceof TableFunction tf) {
                // DuckDB's range(…) / generate_series(…): one column, named after the function unless aliased
                String column = Engines.of(dialect).guard().generatorColumn(tf);
                if (column != null) {
                    String alias = aliasOf(tf.getAlias());
                    sources.add(new Source(tf, alias == null ? column : alias, column, null,
                            aliasColumns(tf.getAlias(), List.of(column)), dialect));
                }
            }
            // anything else (other table functions, lateral views) is refused by the walk
        }

        private Source derived(Object node, Alias alias, Select body, Ctes ctes) {
            return new Source(node, aliasOf(alias), null, null, aliasColumns(alias, outputs(body, ctes)), dialect);
        }

        private Source tableSource(Table t, Ctes ctes) {
            List<String> written = t.getNameParts();
            String name = t.getName() == null ? "" : t.getName().trim();
            String alias = aliasOf(t.getAlias());
            if (written != null && written.size() == 1 && ctes.has(Names.fold(t.getName(), dialect))) {
                return new Source(t, alias, name, null, ctes.columnsOf(Names.fold(t.getName(), dialect)), dialect);
            }
            String key = key(t);
            boolean allowed = key != null && policy.allowedTables().contains(key);
            if (!allowed) {
                // refused by the walk; its names are not reported a second time
                return new Source(t, alias, name, null, null, dialect);
            }
            Source s = new Source(t, alias, name, key, tableColumns(key), dialect);
            if (Engines.of(dialect).guard().fts5() && policy.fts5Tables().contains(key)) {
                s.fts5 = s.tableName;
            }
            return s;
        }

        /** The known and denied columns of an allowed table, or null when the policy does not know them. */
        List<String> tableColumns(String key) {
            Set<String> known = policy.tableColumns().get(key);
            if (known == null) {
                return null;
            }
            Set<String> all = new LinkedHashSet<>(known);
            all.addAll(policy.deniedColumns().getOrDefault(key, Set.of()));
            return List.copyOf(all);
        }

        /** The policy key of a table as {@code AstAnalyzer.visitTable} computes it, or null. */
        String key(Table t) {
            List<String> written = t.getNameParts();
            if (written == null || written.isEmpty()) {
                return null;
            }
            StringBuilder key = new StringBuilder();
            for (int i = written.size() - 1; i >= 0; i--) {
                String p = written.get(i) == null ? "" : written.get(i);
                if (key.length() > 0) {
                    key.append('.');
                }
                key.append(Names.fold(p, dialect));
            }
            return key.toString();
        }

        /**
         * The output column names of a query, as spelled, in order; null when they cannot be known (a star over a
         * table whose columns the policy lacks). An unnamed expression gets the engine's generated name as
         * far as it can be predicted; a reference to a name it mispredicts is refused as unknown, never run.
         */
        List<String> outputs(Select select, Ctes outer) {
            if (select == null) {
                return null;
            }
            Ctes ctes = outer;
            List<WithItem<?>> with = select.getWithItemsList();
            if (with != null && !with.isEmpty()) {
                ctes = withScope(with, outer);
            }
            if (select instanceof ParenthesedSelect p) {
                return aliasColumns(p.getAlias(), outputs(p.getSelect(), ctes));
            }
            if (select instanceof SetOperationList set) {
                return set.getSelects() == null || set.getSelects().isEmpty() ? null
                        : outputs(set.getSelects().get(0), ctes);
            }
            if (select instanceof Values values) {
                return valuesColumns(values);
            }
            if (!(select instanceof PlainSelect ps) || ps.getSelectItems() == null) {
                return null;
            }
            Frame frame = frame(ps, ctes, null);
            List<String> out = new ArrayList<>();
            for (SelectItem<?> item : ps.getSelectItems()) {
                if (item == null) {
                    continue;
                }
                Expression e = item.getExpression();
                if (item.getAlias() != null && item.getAlias().getName() != null) {
                    out.add(item.getAlias().getName().trim());
                } else if (e instanceof AllTableColumns star) {
                    Source s = qualified(frame.sources, star.getTable());
                    if (s == null || s.columns == null) {
                        return null;
                    }
                    out.addAll(s.spelled);
                } else if (e instanceof AllColumns) {
                    for (Source s : frame.sources) {
                        if (s.columns == null) {
                            return null;
                        }
                        out.addAll(s.spelled);
                    }
                } else if (e instanceof Column c) {
                    out.add(c.getColumnName().trim());
                } else if (e instanceof Function f && Engines.of(dialect).guard().namesItemsByFunction() && f.getName() != null) {
                    List<String> parts = f.getMultipartName();
                    out.add(parts.get(parts.size() - 1).trim());
                } else if (Engines.of(dialect).guard().namesItemsByFunction()) {
                    out.add("?column?");
                } else {
                    out.add(Names.lower(String.valueOf(e)));
                }
            }
            return out;
        }

        /** The CTEs of a WITH list as seen from the statement it heads, for computing outputs only. */
        Ctes withScope(List<WithItem<?>> with, Ctes outer) {
            Ctes scope = new Ctes(outer);
            for (WithItem<?> w : with) {
                if (w == null || w.getAlias() == null || w.getAlias().getName() == null) {
                    continue;
                }
                scope.add(Names.fold(w.getAlias().getName(), dialect), cteColumns(w, scope));
            }
            return scope;
        }

        /**
         * The output columns of a CTE: its column list when written, else its body's (a recursive body's
         * first branch, which cannot read the CTE itself).
         */
        List<String> cteColumns(WithItem<?> w, Ctes scope) {
            List<? extends SelectItem<?>> list = w.getWithItemList();
            if (list != null && !list.isEmpty()) {
                List<String> out = new ArrayList<>();
                for (SelectItem<?> item : list) {
                    Expression e = item == null ? null : item.getExpression();
                    if (!(e instanceof Column c)) {
                        return null;
                    }
                    out.add(c.getColumnName().trim());
                }
                return out;
            }
            Object body = w.getParenthesedStatement();
            if (!(body instanceof ParenthesedSelect ps)) {
                return null;
            }
            Select inner = ps.getSelect();
            if (w.isRecursive() && inner instanceof SetOperationList set && set.getSelects() != null
                    && !set.getSelects().isEmpty()) {
                return outputs(set.getSelects().get(0), scope);
            }
            return outputs(ps, scope);
        }

        /** The source a qualifier names among some sources: by alias, else by a table's own name. */
        Source qualified(List<Source> sources, Table qualifier) {
            List<Source> found = qualifiedAll(sources, qualifier);
            return found.size() == 1 ? found.get(0) : null;
        }

        /**
         * Every source a qualifier may name among some sources: those with that alias; when none has it,
         * those whose own name it is (and whose schema it names, when it names one). Names compare by the
         * dialect's table-alias rule.
         */
        List<Source> qualifiedAll(List<Source> sources, Table qualifier) {
            return qualifiedAll(sources, qualifier, Identifiers.tableAliases(dialect));
        }

        /** {@link #qualifiedAll(List, Table)} under a given rule. */
        List<Source> qualifiedAll(List<Source> sources, Table qualifier, Identifiers.Rule rule) {
            if (qualifier == null || qualifier.getName() == null) {
                return List.of();
            }
            String q = Names.fold(qualifier.getName(), rule);
            List<Source> out = new ArrayList<>();
            if (qualifier.getNameParts().size() > 1) {
                // schema.t.c names a real table, never a derived table, VALUES list or CTE aliased t (every
                // engine skips those for an outer table of that name); MySQL and MariaDB take db.alias too
                for (Source s : sources) {
                    if (s.node instanceof Table && s.key != null && (q.equals(Names.fold(s.spelledTable, rule))
                            || Engines.of(dialect).guard().schemaQualifiesAlias() && s.spelledAlias != null
                            && q.equals(Names.fold(s.spelledAlias, rule)))) {
                        out.add(s);
                    }
                }
                return out;
            }
            for (Source s : sources) {
                if (s.spelledAlias != null && q.equals(Names.fold(s.spelledAlias, rule))) {
                    out.add(s);
                }
            }
            if (!out.isEmpty()) {
                return out;
            }
            String full = key(qualifier);
            for (Source s : sources) {
                if (s.spelledTable != null && q.equals(Names.fold(s.spelledTable, rule))
                        && (qualifier.getNameParts().size() == 1 || s.key == null
                        || full.equals(s.key) || s.key.endsWith("." + full) || full.endsWith("." + s.key))) {
                    out.add(s);
                }
            }
            return out;
        }

        /**
         * Whether a setting the guard cannot see (MySQL's lower_case_table_names, H2's identifier settings) may
         * make a qualifier name other sources than the dialect's default rule does. A rule under which it names
         * nothing at all only makes the statement fail there, and is no other binding.
         */
        boolean qualifierDependsOnSettings(Frame frame, Table qualifier) {
            List<Source> primary = bindQualifier(frame, qualifier, Identifiers.tableAliases(dialect));
            for (Identifiers.Rule r : Identifiers.alternatives(dialect, true)) {
                List<Source> other = bindQualifier(frame, qualifier, r);
                if (!other.isEmpty() && !sameSources(primary, other)) {
                    return true;
                }
            }
            return false;
        }

        private List<Source> bindQualifier(Frame frame, Table qualifier, Identifiers.Rule rule) {
            for (Frame f = frame; f != null; f = f.parent) {
                List<Source> found = qualifiedAll(f.sources, qualifier, rule);
                if (!found.isEmpty()) {
                    return found;
                }
            }
            return List.of();
        }

        /**
         * Whether a setting the guard cannot see (H2's DATABASE_TO_LOWER or CASE_INSENSITIVE_IDENTIFIERS) may
         * bind a bare column name to other sources than the dialect's default rule does: the innermost frame
         * that has it, and its sources there. A rule under which nothing has it only makes the statement fail.
         */
        boolean columnDependsOnSettings(Frame frame, String spelled) {
            List<Identifiers.Rule> alternatives = Identifiers.alternatives(dialect, false);
            if (alternatives.isEmpty()) {
                return false;
            }
            List<Source> primary = bindColumn(frame, spelled, Identifiers.columns(dialect));
            for (Identifiers.Rule r : alternatives) {
                List<Source> other = bindColumn(frame, spelled, r);
                if (!other.isEmpty() && !sameSources(primary, other)) {
                    return true;
                }
            }
            return false;
        }

        private static List<Source> bindColumn(Frame frame, String spelled, Identifiers.Rule rule) {
            for (Frame f = frame; f != null; f = f.parent) {
                List<Source> found = having(f.sources, spelled, rule);
                if (!found.isEmpty()) {
                    return found;
                }
            }
            return List.of();
        }

        private static List<Source> having(List<Source> sources, String spelled, Identifiers.Rule rule) {
            List<Source> out = new ArrayList<>();
            for (Source s : sources) {
                if (s.has(spelled, rule)) {
                    out.add(s);
                }
            }
            return out;
        }

        private static boolean sameSources(List<Source> a, List<Source> b) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i) != b.get(i)) {
                    return false;
                }
            }
            return true;
        }

        private List<String> valuesColumns(Values values) {
            int n = 0;
            if (values.getExpressions() != null && !values.getExpressions().isEmpty()) {
                Object first = values.getExpressions().get(0);
                n = first instanceof net.sf.jsqlparser.expression.operators.relational.ExpressionList<?> row
                        ? row.size() : 1;
            }
            List<String> out = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                out.add(Engines.of(dialect).guard().valuesColumnName(i));
            }
            return out;
        }

        private static List<String> aliasColumns(Alias alias, List<String> columns) {
            if (alias == null || alias.getAliasColumns() == null || alias.getAliasColumns().isEmpty()) {
                return columns;
            }
            List<String> out = new ArrayList<>();
            for (Alias.AliasColumn c : alias.getAliasColumns()) {
                out.add(c.name.trim());
            }
            // PostgreSQL keeps the columns past the list under their own names
            if (columns != null && columns.size() > out.size()) {
                out.addAll(columns.subList(out.size(), columns.size()));
            }
            return out;
        }

        private static String aliasOf(Alias alias) {
            return alias == null || alias.getName() == null ? null : alias.getName().trim();
        }
    }

    /**
     * Folds a column name, column alias or CTE name for resolution by the dialect's rule
     * ({@link Identifiers#columns}): H2 and PostgreSQL keep a quoted name apart from a bare one of another case.
     */
    static String fold(String name, Dialect dialect) {
        return Names.fold(name, dialect);
    }

    /** {@return a key with the mark of an odd-case quoted name taken off and lower-cased} */
    static String anyCase(String key) {
        return key.startsWith(Names.UNMATCHABLE) ? Names.lower(key.substring(Names.UNMATCHABLE.length())) : key;
    }

    /** System columns each engine adds to every table. */
    static Set<String> systemColumns(Dialect dialect) {
        return Engines.of(dialect).guard().systemColumns();
    }

    /** Whether the engine reads a table's name used as a value as its whole row. */
    static boolean hasRowValues(Dialect dialect) {
        return Engines.of(dialect).guard().tableNameIsRowValue();
    }

    /**
     * Words the parser may hand over as a bare column where the engine reads a keyword: date and time units
     * as function arguments ({@code TIMESTAMPDIFF(DAY, a, b)}, {@code DATEADD(MONTH, 1, d)}).
     */
    static final Set<String> UNIT_WORDS = Set.of("year", "month", "day", "hour", "minute", "second", "week",
            "quarter", "microsecond", "millisecond", "nanosecond", "epoch", "dow", "doy", "isodow", "isoyear",
            "decade", "century", "millennium", "day_hour", "day_minute", "day_second", "hour_minute",
            "hour_second", "minute_second", "year_month", "day_microsecond", "hour_microsecond",
            "minute_microsecond", "second_microsecond", "dayofyear", "dayofweek", "weekday", "yy", "yyyy", "mm",
            "m", "dd", "d", "hh", "mi", "n", "ss", "s", "ms", "mcs", "ns", "wk", "ww", "qq", "q", "dy", "y", "dw");

}
