package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineGuard;
import dev.sqlagent.engine.Engines;
import dev.sqlagent.engine.Respelled;
import dev.sqlagent.engine.SqlLexer;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.DateUnitExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.JdbcNamedParameter;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.JsonExpression;
import net.sf.jsqlparser.expression.NumericBind;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.UserVariable;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.create.table.ColDataType;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Walks every object of a parsed statement (by reflection over JSqlParser's fields, so that no node is
 * skipped the way a hand-written visitor can skip one) and collects what the policy checks: each table
 * reference resolved against the CTEs in lexical scope, each column, each star, each function call.
 *
 * <p>Fail-closed: a node of a class not on {@link NodeClasses#ALLOWED} is a violation, so a construct the
 * guard was not written for is refused rather than let through unchecked. Not thread-safe: one per check.
 */
final class AstAnalyzer {

    /** A reference to a real table (not a CTE): where it sits, so a row filter can replace it. */
    record TableRef(Table table, Object parent, String key) {
    }

    final GuardPolicy policy;
    final Dialect dialect;
    /** The SQL/JSON constructors' analysis. */
    private final JsonConstructs jsonReads = new JsonConstructs(this);
    /** The checks of the leaves. */
    final LeafChecks leaves = new LeafChecks(this);
    /** The resolution of column names, stars and whole rows against the FROM items in scope. */
    private final ColumnNames columnNames = new ColumnNames(this);
    /** The full-text operators' analysis. */
    private final FullTextReads fullText = new FullTextReads(this);
    /** The engine's reading of its SQL, where engines differ. */
    final EngineGuard engine;
    private final Set<Object> visited = Collections.newSetFromMap(new IdentityHashMap<>());

    final List<Violation> violations = new ArrayList<>();
    final List<TableRef> tableRefs = new ArrayList<>();
    final List<Column> columns = new ArrayList<>();
    final List<AllColumns> stars = new ArrayList<>();
    /**
     * The select-list stars that expand only over derived tables, CTEs and VALUES lists whose output columns
     * are known: each names exactly the columns those queries name (a star inside one of them is a star of its
     * own), so {@code SELECT *} over them reads no column the statement does not name, and never grows with
     * the schema.
     */
    final Set<AllColumns> namedStars = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    /** Folded alias or table name to the table keys it may stand for. */
    final Map<String, Set<String>> qualifiers = new HashMap<>();
    boolean naturalJoin;
    /**
     * DuckDB sample markers the parser was given and not yet found
     * ({@link dev.sqlagent.engine.Respelled#sampleMarkers}).
     */
    private final Set<String> sampleMarkers = new HashSet<>();
    /** Each select block that had a sample marker, and the marker taken off it. */
    final Map<PlainSelect, Table> sampled = new IdentityHashMap<>();
    /** The parameters of the DuckDB lambdas around the node being walked, innermost last (folded). */
    private final List<Set<String>> lambdaParameters = new ArrayList<>();
    /** The product of the sizes of the statement's integer generators in FROM so far. */
    private java.math.BigInteger generatedRows = java.math.BigInteger.ONE;
    /**
     * Whether the statement's lambdas come from DuckDB's {@code lambda} keyword
     * ({@link dev.sqlagent.engine.Respelled#lambdasSpelled}).
     */
    private boolean lambdasSpelled;
    /** The engine's syntax respelled for the parser (select options, index hints …). */
    private Respelled respelled = Respelled.none(null);
    /** The numbers of the select option markers not yet found. */
    private final Set<Integer> optionMarkers = new HashSet<>();
    /** The numbers of the index hint markers not yet found. */
    private final Set<Integer> hintMarkers = new HashSet<>();
    /**
     * How many of SQLite's {@code MATCH} operators the parser holds as {@code MATCH_ANY}
     * ({@link dev.sqlagent.engine.Respelled#matches}).
     */
    int matchMarkers;
    /** Each select block that had a select option marker, and the marker taken off it. */
    final Map<PlainSelect, net.sf.jsqlparser.statement.select.Skip> optioned = new IdentityHashMap<>();

    final NameScope.Builder names;
    /** The FROM items the name being walked can see; null outside any query's FROM scope. */
    NameScope.Frame frame;
    /** Every FROM item of every query of the statement, for what each real table is read for. */
    final List<NameScope.Source> sources = new ArrayList<>();
    /**
     * Whether some allowed table was read whose columns the policy does not know: its names cannot be
     * resolved, and the caller adds the conservative by-name checks.
     */
    boolean open;

    AstAnalyzer(GuardPolicy policy, Dialect dialect) {
        this.policy = policy;
        this.dialect = dialect;
        this.engine = Engines.of(dialect).guard();
        this.names = new NameScope.Builder(policy, dialect);
    }

    void analyse(Select statement) {
        walk(statement, null, new NameScope.Ctes(null));
    }

    /**
     * Analyses a statement whose engine syntax the parser does not read was respelled: DuckDB's sample clauses,
     * MySQL's and MariaDB's select options and index hints, SQLite's {@code MATCH} operators, held as markers.
     *
     * @param statement the statement
     * @param respelled what the engine's spelling respelled for the parser
     */
    void analyse(Select statement, Respelled respelled) {
        matchMarkers = respelled.matches();
        sampleMarkers.addAll(respelled.sampleMarkers());
        lambdasSpelled = respelled.lambdasSpelled();
        this.respelled = respelled;
        for (int k = 0; k < respelled.selectOptions(); k++) {
            optionMarkers.add(k);
        }
        for (int k = 0; k < respelled.indexHints(); k++) {
            hintMarkers.add(k);
        }
        analyse(statement);
        if (!sampleMarkers.isEmpty()) {
            violation(ViolationType.UNSUPPORTED_CONSTRUCT, "USING SAMPLE",
                    "a sample clause sits where DuckDB does not read one (only at the end of a select block)");
        }
        if (!optionMarkers.isEmpty() || !hintMarkers.isEmpty()) {
            violation(ViolationType.UNSUPPORTED_CONSTRUCT, !optionMarkers.isEmpty() ? "select options" : "index hint",
                    "a select option or an index hint sits where the guard does not read it");
        }
        if (matchMarkers != 0) {
            violation(ViolationType.UNSUPPORTED_CONSTRUCT, "MATCH",
                    "a MATCH operator sits where the guard does not read it");
        }
    }

    void violation(ViolationType type, String fragment, String message) {
        if (violations.size() < 20) {
            violations.add(new Violation(type, fragment == null ? "" : shorten(fragment), message));
        }
    }

    private static final int IGNORE = 0;
    private static final int COLLECTION = 1;
    private static final int FOREIGN_COLLECTION = 2;
    private static final int MAP = 3;
    private static final int NODE = 4;
    private static final int UNKNOWN_NODE = 5;
    private static final int UNKNOWN_COLLECTION = 6;

    /** What each runtime class is to the walk, computed once per class. */
    private static final ClassValue<Integer> KIND = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> cls) {
            String cn = cls.getName();
            boolean ours = cn.startsWith("net.sf.jsqlparser.");
            if (Collection.class.isAssignableFrom(cls)) {
                if (!ours) {
                    return FOREIGN_COLLECTION;
                }
                return NodeClasses.ALLOWED.contains(cls) ? COLLECTION : UNKNOWN_COLLECTION;
            }
            if (Map.class.isAssignableFrom(cls)) {
                return MAP;
            }
            if (!ours || cls.isEnum() || Enum.class.isAssignableFrom(cls) || cn.startsWith("net.sf.jsqlparser.parser.")) {
                return IGNORE;
            }
            return NodeClasses.ALLOWED.contains(cls) ? NODE : UNKNOWN_NODE;
        }
    };

    void walk(Object node, Object parent, NameScope.Ctes scope) {
        if (node == null) {
            return;
        }
        Class<?> cls = node.getClass();
        int kind = KIND.get(cls);
        switch (kind) {
            case IGNORE:
                return;
            case UNKNOWN_COLLECTION:
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, cls.getSimpleName(),
                        "the guard does not analyse " + cls.getSimpleName());
                return;
            case COLLECTION:
            case FOREIGN_COLLECTION:
                for (Object o : (Collection<?>) node) {
                    walk(o, parent, scope);
                }
                return;
            case MAP:
                for (Object o : ((Map<?, ?>) node).values()) {
                    walk(o, parent, scope);
                }
                return;
            default:
                break;
        }
        if (!visited.add(node)) {
            return;
        }
        NameScope.Frame saved = frame;
        if (frame != null) {
            NameScope.Frame context = frame.contexts.get(node);
            if (context != null) {
                frame = context;
            }
        }
        try {
            visit(node, parent, scope, kind);
        } finally {
            frame = saved;
        }
    }

    private void visit(Object node, Object parent, NameScope.Ctes scope, int kind) {
        Class<?> cls = node.getClass();
        if (node instanceof JdbcParameter || node instanceof JdbcNamedParameter || node instanceof UserVariable
                || node instanceof NumericBind) {
            violation(ViolationType.PARAMETER, node.toString(), "placeholders and variables are not allowed");
            return;
        }
        if (node instanceof TableFunction tf && tf.getFunction() != null) {
            // a table macro the database defines may take a generator's name (DuckDB range, generate_series)
            List<String> parts = new ArrayList<>();
            tf.getFunction().getMultipartName().forEach(p -> parts.add(Names.unquote(p)));
            List<DatabaseObjects.Routine> own = DatabaseObjectRules.binding(parts, dialect, policy);
            if (!own.isEmpty() && !DatabaseObjectRules.allowed(own, policy)) {
                violation(ViolationType.TABLE_FUNCTION, node.toString(), "the database defines "
                        + DatabaseObjectRules.signatures(own) + " itself, which may bind instead of a built-in");
                return;
            }
        }
        if (node instanceof TableFunction tf && engine.expandsArguments(tf)) {
            // Trino's UNNEST: its arguments are expressions like any other, read in the frame NameScope gave it
            String problem = engine.tableFunctionProblem(tf);
            if (problem != null) {
                violation(ViolationType.TABLE_FUNCTION, node.toString(), problem);
                return;
            }
            walk(tf.getFunction().getParameters(), tf, scope);
            return;
        }
        if (node instanceof TableFunction) {
            // DuckDB's bounded integer generators read nothing but their constants: not walked further
            String problem = engine.tableFunctionProblem((TableFunction) node);
            if (problem != null) {
                violation(ViolationType.TABLE_FUNCTION, node.toString(), problem);
                return;
            }
            // joined, generators multiply: all of the statement's together stay under the one cap
            generatedRows = generatedRows.multiply(engine.generatedRows((TableFunction) node).max(java.math.BigInteger.ONE));
            if (generatedRows.compareTo(java.math.BigInteger.valueOf(dev.sqlagent.internal.IntegerSeries.MAX_ROWS)) > 0) {
                violation(ViolationType.RESOURCE_LIMIT, node.toString(), "the generators in FROM would make "
                        + generatedRows + " rows together, more than " + dev.sqlagent.internal.IntegerSeries.MAX_ROWS);
            }
            return;
        }
        if (node instanceof net.sf.jsqlparser.statement.select.Values values && engine.valuesInFrom()
                && isFromItem(parent)) {
            // Trino's (VALUES …) AS v(…) in FROM: its rows are expressions like any other, read in the frame
            // NameScope gave its item; nothing else may be written on it (the printing is what runs)
            if (values.getExpressions() == null || values.getExpressions().isEmpty()
                    || !values.toString().equals("VALUES " + values.getExpressions())) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, node.toString(),
                        "a VALUES list in FROM is read only as (VALUES row, …) AS v(c1, …)");
                return;
            }
            walk(values.getExpressions(), node, scope);
            return;
        }
        if (node instanceof net.sf.jsqlparser.statement.create.table.ColumnDefinition field
                && parent instanceof net.sf.jsqlparser.expression.CastExpression && engine.rowTypeFields()) {
            // Trino's CAST(x AS ROW(n varchar, …)): a field's name names nothing but the field; its type is checked
            // as a cast's type is. Nothing else may be written on a field.
            if (field.getColumnName() == null || field.getColDataType() == null
                    || field.getColumnSpecs() != null && !field.getColumnSpecs().isEmpty()
                    || field.getColumnOptions() != null && !field.getColumnOptions().isEmpty()
                    || field.isWithOptions()) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, node.toString(),
                        "a field of a ROW type is read only as a name and a type");
                return;
            }
            if (!printable(parent)) {
                // JSqlParser 5.4 reads a one-field ROW(s varchar) but cannot print it back
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, "CAST(… AS ROW(…))",
                        "this cast to a ROW type cannot be printed back exactly");
                return;
            }
            walk(field.getColDataType(), node, scope);
            return;
        }
        if (kind == UNKNOWN_NODE) {
            violation(ViolationType.UNSUPPORTED_CONSTRUCT, cls.getSimpleName() + ": " + node,
                    "the guard does not analyse " + cls.getSimpleName());
            return;
        }
        if (policy.databaseObjects().hasOperators()) {
            leaves.checkOperators(node);
        }
        if (node instanceof Select) {
            visitSelect((Select) node, scope);
        } else if (node instanceof Table) {
            visitTable((Table) node, parent, scope);
        } else if (node instanceof JsonExpression) {
            // its keys sit in Map.Entry objects, which the walk does not enter: walk them by hand
            walk(((JsonExpression) node).getExpression(), node, scope);
            for (java.util.Map.Entry<?, String> e : ((JsonExpression) node).getIdentList()) {
                walk(e.getKey(), node, scope);
            }
        } else if (node instanceof StringValue) {
            if (engine.backslashEscapes()) {
                leaves.respellMySqlString((StringValue) node);
            }
        } else if (node instanceof ColDataType) {
            leaves.checkCastType((ColDataType) node);
            walkFields(node, scope, null);
        } else if (node instanceof TimeKeyExpression) {
            leaves.checkProbeKeyword(((TimeKeyExpression) node).getStringValue(), node);
        } else if (node instanceof Column) {
            Column column = (Column) node;
            columns.add(column);
            leaves.checkColumnName(column);
            columnNames.resolve(column, parent, false);
            walk(column.getArrayConstructor(), column, scope);
        } else if (node instanceof DateUnitExpression) {
            // a bare YEAR, DAY, … is read as a date unit but is a column to the database when one has the name
            Column column = new Column(node.toString());
            columns.add(column);
            columnNames.resolve(column, parent, true);
        } else if (node instanceof AllTableColumns) {
            stars.add((AllTableColumns) node);
            columnNames.star((AllTableColumns) node, parent);
            walkFields(node, scope, "table");
        } else if (node instanceof AllColumns) {
            if (!(parent instanceof Function || parent instanceof AnalyticExpression)) {
                stars.add((AllColumns) node);
                columnNames.star((AllColumns) node, parent);
            }
            walkFields(node, scope, null);
        } else if (node instanceof net.sf.jsqlparser.expression.LambdaExpression) {
            lambda((net.sf.jsqlparser.expression.LambdaExpression) node, scope);
        } else if (node instanceof net.sf.jsqlparser.expression.StructType) {
            net.sf.jsqlparser.expression.StructType struct = (net.sf.jsqlparser.expression.StructType) node;
            if (!engine.structLiteral(struct)) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, node.toString(),
                        "only DuckDB's struct literal {'key': value} is analysed");
                return;
            }
            // the keys are the items' aliases (names of the struct's fields, no columns); the values are walked
            walk(struct.getArguments(), node, scope);
        } else if (node instanceof net.sf.jsqlparser.expression.OracleNamedFunctionParameter named) {
            // PostgreSQL's named argument f(n => x): n names a parameter of the function, never a column
            if (!engine.namedArguments() || !(parent instanceof Function)) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, "OracleNamedFunctionParameter: " + node,
                        "the guard does not analyse OracleNamedFunctionParameter");
                return;
            }
            walk(named.getExpression(), node, scope);
        } else if (node instanceof net.sf.jsqlparser.expression.operators.relational.CosineSimilarity) {
            // MySQL and MariaDB read a <=> b as NULL-safe equality; elsewhere it is an extension's operator
            if (!engine.nullSafeEqualsOperator()) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, "CosineSimilarity: " + node,
                        "the guard does not analyse CosineSimilarity");
                return;
            }
            walkFields(node, scope, null);
        } else if (node instanceof net.sf.jsqlparser.expression.operators.relational.JsonOperator json) {
            // PostgreSQL's containment a @> b, a <@ b (jsonb, arrays, ranges): both operands are walked
            if (!engine.containmentOperators() || !Set.of("@>", "<@").contains(json.getStringExpression())) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, "JsonOperator: " + node,
                        "the guard does not analyse JsonOperator " + json.getStringExpression());
                return;
            }
            walkFields(node, scope, null);
        } else if (node instanceof net.sf.jsqlparser.expression.RowGetExpression) {
            // DuckDB's field access on a value ({'a': x}.a, (p).name): the value is walked like any other (a
            // table's alias there is its whole row); elsewhere attribute notation is not analysed
            if (!engine.fieldAccess()) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, "RowGetExpression: " + node,
                        "the guard does not analyse RowGetExpression");
                return;
            }
            walk(((net.sf.jsqlparser.expression.RowGetExpression) node).getExpression(), node, scope);
        } else if (node instanceof net.sf.jsqlparser.expression.operators.relational.LikeExpression like
                && like.getLikeKeyWord() == net.sf.jsqlparser.expression.operators.relational.LikeExpression.KeyWord
                .MATCH_ANY) {
            fullText.match(like, scope);
        } else if (node instanceof Function f && engine.fullTextFunction(f) != null) {
            fullText.fts5Auxiliary(f, scope);
        } else if (node instanceof Function && parent instanceof net.sf.jsqlparser.statement.select.GroupByElement
                && isGroupingConstruct((Function) node)) {
            // GROUP BY ROLLUP (a, b) / CUBE (a, b): grouping syntax the parser reads as a call; its items are
            // walked as the grouping expressions they are
            walk(((Function) node).getParameters(), parent, scope);
        } else if (node instanceof Function) {
            leaves.checkFunction(((Function) node).getMultipartName(), node);
            walkFields(node, scope, null);
        } else if (node instanceof net.sf.jsqlparser.expression.JsonFunction) {
            jsonReads.jsonFunction((net.sf.jsqlparser.expression.JsonFunction) node, scope);
        } else if (node instanceof net.sf.jsqlparser.expression.JsonAggregateFunction) {
            jsonReads.jsonAggregate((net.sf.jsqlparser.expression.JsonAggregateFunction) node, scope);
        } else if (node instanceof net.sf.jsqlparser.expression.MySQLGroupConcat) {
            // a node of its own, not a Function: decided like one
            leaves.checkFunction(List.of("group_concat"), node);
            walkFields(node, scope, null);
        } else if (node instanceof AnalyticExpression) {
            String name = ((AnalyticExpression) node).getName();
            leaves.checkFunction(name == null ? List.of() : List.of(name), node);
            walkFields(node, scope, null);
        } else {
            if (node instanceof Join && ((Join) node).isNatural() && !naturalJoin((Join) node, parent)) {
                naturalJoin = true;
            }
            walkFields(node, scope, null);
        }
    }

    /** Whether the parser can print a node back (the printing is what runs). */
    private static boolean printable(Object node) {
        try {
            node.toString();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Whether a node is an item of some query's FROM clause (NameScope made a source of it). */
    private boolean isFromItem(Object node) {
        for (NameScope.Source s : sources) {
            if (s.node == node) {
                return true;
            }
        }
        return false;
    }

    /**
     * A NATURAL join compares every column its two sides share: each shared column is read, on every item of
     * either side that has it (a denied one is refused like any read of it). Computed only when each item of
     * both sides is an allowed table whose columns the policy knows, or a derived table whose output names are
     * exact (every item a column or aliased, no star: {@link #exactOutputs}); the shared names are compared
     * ignoring case, so the guard's set holds the engine's. Anything else (a CTE, a parenthesised join, a table
     * the policy knows no columns of, a star inside) returns false: the caller then counts every column read and
     * refuses the join next to a table with denied columns; so does DuckDB, whose engine check
     * ({@code DuckDbReader}) reads a natural join as a star over both sides.
     *
     * @param join a natural join
     * @param parent the node holding it
     * @return whether the shared columns were computed and read
     */
    private boolean naturalJoin(Join join, Object parent) {
        if (!(parent instanceof PlainSelect ps) || ps.getJoins() == null || frame == null
                || !engine.naturalJoins()) {
            // DuckDB's engine check reads a natural join as a star over both sides: kept refused alike
            return false;
        }
        List<FromItem> items = new ArrayList<>();
        items.add(ps.getFromItem());
        boolean found = false;
        for (Join j : ps.getJoins()) {
            if (j == null) {
                return false;
            }
            items.add(j.getFromItem());
            if (j == join) {
                found = true;
                break;
            }
        }
        if (!found) {
            return false;
        }
        List<NameScope.Source> sides = new ArrayList<>();
        for (FromItem item : items) {
            NameScope.Source source = null;
            for (NameScope.Source s : frame.sources) {
                if (s.node == item) {
                    source = s;
                }
            }
            boolean exact = source != null && source.columns != null && (item instanceof Table
                    ? source.key != null
                    : item instanceof ParenthesedSelect derived && exactOutputs(derived));
            if (!exact) {
                return false;
            }
            sides.add(source);
        }
        NameScope.Source right = sides.remove(sides.size() - 1);
        for (String name : right.columns) {
            List<NameScope.Source> having = new ArrayList<>();
            for (NameScope.Source s : sides) {
                for (String c : s.columns) {
                    if (sameName(c, name)) {
                        having.add(s);
                        break;
                    }
                }
            }
            if (having.isEmpty()) {
                continue;
            }
            if (!PLAIN_NAME.matcher(name).matches()) {
                // a row filter spells each read column bare in its derived table: only plain names
                return false;
            }
            having.add(right);
            for (NameScope.Source s : having) {
                for (String c : s.columns) {
                    if (sameName(c, name)) {
                        columnNames.read(s, c, new Column(c));
                    }
                }
            }
        }
        return true;
    }

    private static final java.util.regex.Pattern PLAIN_NAME = java.util.regex.Pattern.compile("[a-z_][a-z0-9_]*");

    /**
     * Two column names (keys) as any engine may compare them: ignoring case, Unicode letters too, and a quoted
     * name of another case as the real column it may be (a shared name that is not plain is then refused).
     */
    private static boolean sameName(String x, String y) {
        String a = NameScope.anyCase(x);
        String b = NameScope.anyCase(y);
        return a.toUpperCase(java.util.Locale.ROOT).toLowerCase(java.util.Locale.ROOT)
                .equals(b.toUpperCase(java.util.Locale.ROOT).toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * Whether every engine names the output columns of a query exactly as {@link NameScope.Builder#outputs}
     * predicts: each select item a column or aliased, no star, the first branch of a set operation alike, or a
     * column list on the alias naming every column.
     */
    private static boolean exactOutputs(Select select) {
        if (select instanceof ParenthesedSelect p) {
            // a column list on the alias names the first columns; the rest keep the body's names
            return exactOutputs(p.getSelect());
        }
        if (select instanceof SetOperationList set) {
            return set.getSelects() != null && !set.getSelects().isEmpty() && exactOutputs(set.getSelects().get(0));
        }
        if (!(select instanceof PlainSelect ps) || ps.getSelectItems() == null) {
            return false;
        }
        for (SelectItem<?> item : ps.getSelectItems()) {
            if (item == null || item.getExpression() instanceof AllColumns) {
                return false;
            }
            if ((item.getAlias() == null || item.getAlias().getName() == null)
                    && !(item.getExpression() instanceof Column)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A DuckDB lambda: its parameters are names of their own inside its body (DuckDB reads an unqualified
     * name that is a parameter as the parameter, and a qualified one as a table's column first).
     */
    private void lambda(net.sf.jsqlparser.expression.LambdaExpression lambda, NameScope.Ctes scope) {
        if (!engine.lambdas() || !lambdasSpelled) {
            // DuckDB may read an arrow in a call as its JSON operator over a column, not as a lambda
            violation(ViolationType.UNSUPPORTED_CONSTRUCT, "LambdaExpression: " + lambda, engine.lambdas()
                    ? "the arrow -> is not analysed (DuckDB may read it as JSON extraction); write lambda x: …"
                    : "lambdas are analysed only on DuckDB");
            return;
        }
        Set<String> params = new HashSet<>();
        for (String p : lambda.getIdentifiers()) {
            params.add(NameScope.fold(p, dialect));
        }
        lambdaParameters.add(params);
        try {
            walk(lambda.getExpression(), lambda, scope);
        } finally {
            lambdaParameters.remove(lambdaParameters.size() - 1);
        }
    }

    boolean isLambdaParameter(String folded) {
        for (Set<String> p : lambdaParameters) {
            if (p.contains(folded)) {
                return true;
            }
        }
        return false;
    }

    /** A call with plain arguments only: no DISTINCT, ORDER BY, FILTER-like clause, named or chained arguments. */
    static boolean plainCall(Function f) {
        return f.getNamedParameters() == null && f.getChainedParameters() == null && !f.isDistinct() && !f.isUnique()
                && !f.isAllColumns() && f.getOrderByElements() == null && f.getAttribute() == null
                && f.getKeep() == null && f.getOnOverflowTruncate() == null && f.getHavingClause() == null
                && f.getLimit() == null && f.getNullHandling() == null && f.getExtraKeyword() == null
                && (f.getKeywordArguments() == null || f.getKeywordArguments().isEmpty()) && !f.isEscaped()
                && !f.isIgnoreNulls() && !f.isIgnoreNullsOutside();
    }

    /** {@code ROLLUP (…)} or {@code CUBE (…)} as a grouping item: a bare name, plain arguments, nothing else. */
    private static boolean isGroupingConstruct(Function f) {
        String name = f.getName() == null ? "" : f.getName().toLowerCase(java.util.Locale.ROOT);
        return (name.equals("rollup") || name.equals("cube")) && f.getMultipartName().size() == 1
                && f.getParameters() != null && !f.getParameters().isEmpty() && f.getNamedParameters() == null
                && f.getChainedParameters() == null && !f.isDistinct() && !f.isUnique() && !f.isAllColumns()
                && f.getOrderByElements() == null && f.getAttribute() == null && f.getKeep() == null
                && f.getOnOverflowTruncate() == null && f.getHavingClause() == null && f.getLimit() == null
                && f.getNullHandling() == null && f.getExtraKeyword() == null
                && (f.getKeywordArguments() == null || f.getKeywordArguments().isEmpty()) && !f.isEscaped();
    }

    void walkFields(Object node, NameScope.Ctes scope, String skip) {
        TreeFields.Accessor[] fields = TreeFields.FIELDS.get(node.getClass());
        if (fields.length == 1 && fields[0] == TreeFields.UNREADABLE) {
            violation(ViolationType.UNSUPPORTED_CONSTRUCT, node.getClass().getSimpleName(),
                    "the guard cannot read every part of " + node.getClass().getSimpleName());
            return;
        }
        for (TreeFields.Accessor f : fields) {
            if (skip != null && f.name().endsWith("." + skip)) {
                continue;
            }
            walk(f.read(node), node, scope);
        }
    }

    private void visitSelect(Select select, NameScope.Ctes outer) {
        NameScope.Ctes scope = outer;
        List<WithItem<?>> with = select.getWithItemsList();
        if (with != null && !with.isEmpty()) {
            scope = visitWith(with, outer);
        }
        if (select.getForMode() != null || select.getForUpdateTable() != null
                || select.getForUpdateTables() != null && !select.getForUpdateTables().isEmpty()
                || select.getForUpdate() != null || select.getWait() != null || select.isSkipLocked()
                || select.isNoWait()) {
            violation(ViolationType.LOCKING_CLAUSE, "FOR " + select.getForMode(), "locking clauses are not allowed");
        }
        if (select.getForClause() != null || select.getIsolation() != null
                || select.getMySqlProcedureAnalyse() != null || select.getOption() != null
                || select.getLimitBy() != null || select.getInterpolate() != null && !select.getInterpolate().isEmpty()) {
            violation(ViolationType.UNSUPPORTED_CONSTRUCT, select.toString(), "vendor clause not supported");
        }
        if (select instanceof PlainSelect) {
            PlainSelect ps = (PlainSelect) select;
            Table into = ps.getIntoTempTable();
            net.sf.jsqlparser.statement.select.Skip skip = ps.getSkip();
            if (skip != null && skip.getRowCount() == null && skip.getJdbcParameter() == null
                    && optionMarkers.remove(respelled.selectOptionsMarker(Names.lower(String.valueOf(skip.getVariable()))))) {
                // MySQL's and MariaDB's select options, held by the parser as this marker (MySqlSpelling): off the
                // tree for the analysis, put back by the guard for the printing
                optioned.put(ps, skip);
                ps.setSkip(null);
            }
            if (into != null && into.getSchemaName() == null && sampleMarkers.remove(Names.lower(Names.unquote(into.getName().trim())))) {
                // DuckDB's USING SAMPLE, held by the parser as this marker (DuckDbSpelling): off the tree for
                // the analysis, put back by the guard for the printing
                sampled.put(ps, into);
                ps.setIntoTempTable(null);
            }
            if (ps.getIntoTables() != null && !ps.getIntoTables().isEmpty() || ps.getIntoTempTable() != null
                    || ps.getMySqlSelectIntoClause() != null) {
                violation(ViolationType.INTO_CLAUSE, "INTO", "SELECT … INTO and INTO OUTFILE/DUMPFILE are not allowed");
            }
            if (ps.getOracleHierarchical() != null || ps.getKsqlWindow() != null || ps.isEmitChanges()
                    || ps.getSettings() != null && !ps.getSettings().isEmpty()
                    || ps.getLateralViews() != null && !ps.getLateralViews().isEmpty()
                    || ps.getPreferringClause() != null || ps.getOracleHint() != null || ps.getForXmlPath() != null
                    || ps.getFirst() != null || ps.getSkip() != null || ps.getOptimizeFor() != null
                    || ps.getSampleClause() != null || ps.isUsingFinal() || ps.getPreWhere() != null) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, "PlainSelect", "vendor clause not supported");
            }
        }
        if (select instanceof ParenthesedSelect) {
            ParenthesedSelect ps = (ParenthesedSelect) select;
            if (ps.getPivot() != null || ps.getUnPivot() != null || ps.getSampleClause() != null) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, "PIVOT", "PIVOT/UNPIVOT/TABLESAMPLE not supported");
            }
        }
        if (select.getPivot() != null || select.getUnPivot() != null) {
            violation(ViolationType.UNSUPPORTED_CONSTRUCT, "PIVOT", "PIVOT/UNPIVOT not supported");
        }
        NameScope.Ctes blockScope = scope;
        ResourceBounds.checkSelect(select, dialect, policy, n -> blockScope.has(Names.fold(n, dialect)))
                .ifPresent(v -> violation(v.type(), v.fragment(), v.message()));
        NameScope.Frame saved = frame;
        try {
            if (select instanceof PlainSelect) {
                frame = names.frame((PlainSelect) select, scope, frame);
                for (NameScope.Source s : frame.sources) {
                    sources.add(s);
                    open |= s.key != null && s.columns == null;
                }
                walkFields(select, scope, "withItemsList");
            } else if (select instanceof SetOperationList) {
                // the branches cannot see each other; ORDER BY sees the first branch's output columns
                NameScope.Frame around = frame;
                NameScope.Frame outputs = new NameScope.Frame(around, List.of(new NameScope.Source(select, null,
                        null, null, names.outputs(((SetOperationList) select).getSelects().get(0), scope), dialect)),
                        Set.of(), new IdentityHashMap<>());
                TreeFields.Accessor[] fields = TreeFields.FIELDS.get(select.getClass());
                if (fields.length == 1 && fields[0] == TreeFields.UNREADABLE) {
                    walkFields(select, scope, null);
                    return;
                }
                for (TreeFields.Accessor f : fields) {
                    if (f.name().endsWith(".withItemsList")) {
                        continue;
                    }
                    frame = f.name().endsWith(".orderByElements") ? outputs : around;
                    walk(f.read(select), select, scope);
                }
            } else {
                walkFields(select, scope, "withItemsList");
            }
        } finally {
            frame = saved;
        }
    }

    /**
     * CTE scoping, conservative for every dialect: inside a CTE body only the CTEs defined before it are
     * CTE references (and itself, under RECURSIVE); any other name is read as a real table and checked,
     * so a CTE named like a forbidden table that reads that table is refused whichever way the database
     * resolves the inner name.
     */
    private NameScope.Ctes visitWith(List<WithItem<?>> with, NameScope.Ctes outer) {
        NameScope.Ctes scope = new NameScope.Ctes(outer);
        boolean recursive = false;
        for (WithItem<?> w : with) {
            recursive |= w.isRecursive();
        }
        for (WithItem<?> w : with) {
            if (w == null || !visited.add(w)) {
                continue;
            }
            Alias alias = w.getAlias();
            String name = alias == null || alias.getName() == null ? null : Names.fold(alias.getName(), dialect);
            if (name == null) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, w.toString(), "a CTE without a name");
                continue;
            }
            leaves.checkFolding(alias.getName());
            if (scope.hasOtherCase(Names.lower(Names.unquote(alias.getName().trim())), name)) {
                // H2 and PostgreSQL keep "a" and A apart, H2's settings or MySQL may not: never guess which one
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, alias.getName(),
                        "a CTE named like another CTE in scope but for case or quoting: " + alias.getName());
                continue;
            }
            if (policy.namesTable(Names.lower(Names.unquote(alias.getName())))) {
                // H2 reads the real table inside WITH RECURSIVE t AS (… FROM t); a shadowing CTE is never needed
                violation(ViolationType.TABLE_NOT_ALLOWED, alias.getName(),
                        "a CTE may not be named like a table of the database: " + alias.getName());
                continue;
            }
            if (recursive && engine.recursiveCteMayReadTable() && policy.knownTables().isEmpty()) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, alias.getName(), "on H2 a recursive CTE may read "
                        + "a real table of its name; give the policy the database's tables (knownTables) to allow it");
                continue;
            }
            if (w.getWithFunctionDeclaration() != null || w.getSearchClause() != null || w.getCycleClause() != null) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, w.toString(), "CTE clause not supported");
            }
            Object body = w.getParenthesedStatement();
            if (!(body instanceof ParenthesedSelect)) {
                violation(ViolationType.WRITABLE_CTE, w.toString(), "a CTE that writes is not allowed");
                continue;
            }
            List<String> cteColumns = names.cteColumns(w, scope);
            if (recursive) {
                scope.add(name, cteColumns);
            }
            walk(body, w, scope);
            scope.add(name, cteColumns);
        }
        return scope;
    }

    private void visitTable(Table table, Object parent, NameScope.Ctes scope) {
        net.sf.jsqlparser.expression.MySQLIndexHint hint = table.getIndexHint();
        if (hint != null && hint.getIndexNames() != null && !hint.getIndexNames().isEmpty()
                && hintMarkers.remove(respelled.indexHintMarker(Names.lower(hint.getIndexNames().get(0))))) {
            // an index hint's KEY or FOR clause (or empty list), held by the parser as this marker (MySqlSpelling):
            // put back into the hint, which prints it; the index names are no columns and read nothing
            String qualifier = respelled.indexHint(respelled.indexHintMarker(Names.lower(hint.getIndexNames().get(0))));
            table.setHint(new net.sf.jsqlparser.expression.MySQLIndexHint(hint.getAction(), qualifier,
                    new ArrayList<>(hint.getIndexNames().subList(1, hint.getIndexNames().size()))));
        }
        String name = table.getName();
        List<String> written = table.getNameParts();
        if (name == null || written == null || written.isEmpty() || table.isTableVariable()) {
            violation(ViolationType.TABLE_NOT_ALLOWED, String.valueOf(table), "variable or nameless table");
            return;
        }
        if (table.getPivot() != null || table.getUnPivot() != null || table.getSampleClause() != null
                || table.getTimeTravel() != null) {
            violation(ViolationType.UNSUPPORTED_CONSTRUCT, table.toString(), "PIVOT/UNPIVOT/TABLESAMPLE/time travel");
        }
        // name parts come innermost first: table, schema, database, server
        List<String> parts = new ArrayList<>();
        for (int i = written.size() - 1; i >= 0; i--) {
            String p = written.get(i) == null ? "" : written.get(i);
            if (Names.isQuoted(p) && Names.unquote(p).indexOf('.') >= 0) {
                // "hr.salary" is one table named with a dot, not schema hr: never let it match hr.salary
                violation(ViolationType.TABLE_NOT_ALLOWED, table.getFullyQualifiedName(),
                        "a quoted table name containing a dot is not allowed: " + table.getFullyQualifiedName());
                return;
            }
            if (!Names.isQuoted(p) && p.indexOf('@') >= 0) {
                violation(ViolationType.TABLE_NOT_ALLOWED, table.getFullyQualifiedName(),
                        "database links are not allowed: " + table.getFullyQualifiedName());
                return;
            }
            parts.add(p);
        }
        for (String p : parts) {
            leaves.checkFolding(p);
        }
        String folded = Names.fold(name, dialect);
        Alias alias = table.getAlias();
        if (parts.size() == 1 && scope.has(folded)) {
            addQualifier(alias, folded, "cte:" + folded);
            return;
        }
        StringBuilder key = new StringBuilder();
        StringBuilder exact = new StringBuilder();
        for (String p : parts) {
            if (key.length() > 0) {
                key.append('.');
                exact.append('.');
            }
            key.append(Names.fold(p, dialect));
            exact.append(Names.exact(p));
        }
        String k = key.toString();
        boolean allowed = engine.tableNamesExact()
                ? policy.allowedTablesAsWritten().contains(exact.toString())
                : policy.allowedTables().contains(k);
        if (!allowed) {
            violation(ViolationType.TABLE_NOT_ALLOWED, table.getFullyQualifiedName(),
                    "table is not allowed: " + table.getFullyQualifiedName());
            return;
        }
        tableRefs.add(new TableRef(table, parent, k));
        addQualifier(alias, folded, k);
        if (parts.size() > 1) {
            addQualifier(null, k, k);
        }
    }

    private void addQualifier(Alias alias, String tableName, String key) {
        if (alias != null && alias.getName() != null) {
            leaves.checkFolding(alias.getName());
            qualifiers.computeIfAbsent(Names.fold(alias.getName(), dialect), x -> new LinkedHashSet<>()).add(key);
            if (alias.getAliasColumns() != null && !alias.getAliasColumns().isEmpty()) {
                violation(ViolationType.UNSUPPORTED_CONSTRUCT, alias.toString(), "column aliases on a table");
            }
        }
        qualifiers.computeIfAbsent(tableName, x -> new LinkedHashSet<>()).add(key);
    }

    static String shorten(String s) {
        String oneLine = s.replaceAll("\\s+", " ").trim();
        return oneLine.length() > 120 ? oneLine.substring(0, 120) + "…" : oneLine;
    }
}
