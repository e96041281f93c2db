package dev.sqlagent.engine.postgres;

import dev.sqlagent.engine.Explain;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.engine.Reads;
import dev.sqlagent.execution.SqlStatement;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What PostgreSQL's {@code EXPLAIN} does not print about a sub-plan, read from the planner's own tree.
 *
 * <p>Up to PostgreSQL 16 a sub-plan prints as {@code (SubPlan n)}: the comparison of an {@code IN},
 * {@code ANY}, {@code ALL} or row-comparison sub-plan with the outer row (its {@code testexpr}) is not shown,
 * so the columns and functions it uses are not in the plan's text. Rather than take every column of the
 * relations around such a sub-plan as read (which refuses every correlated subquery on a table with a denied
 * column), the statement is planned once more with {@code debug_print_plan} and the plan tree is read from the
 * notice PostgreSQL sends back (a user setting, no privilege needed):
 * <ul>
 *   <li>every permission-checked range-table entry's (PostgreSQL 16 and later: permission entry's)
 *       {@code selectedCols}: the columns the statement reads from that relation anywhere, the set
 *       PostgreSQL's column privileges are checked against, so a superset of what a hidden comparison
 *       reads;</li>
 *   <li>every function a sub-plan's {@code testexpr} or arguments call, by its oid.</li>
 * </ul>
 * Anything in a hidden comparison that is not a known expression node is unreadable (the statement is
 * refused). The planner writes the tree to the server log as well (it is a {@code LOG} message, about 7 KB
 * for a question's statement): this happens only for statements whose plan has a sub-plan, on PostgreSQL 12
 * to 16. When the tree cannot be had (a driver that does not expose a notice's detail, another server
 * version, no tree in the notices) the caller keeps its over-approximation.
 */
final class PgPlanDump {

    /** PostgreSQL 12 and later: {@code selectedCols} bit {@code b} is attribute {@code b - 7}. */
    private static final int FIRST_LOW_INVALID_ATTNO = -7;
    private static final int MAX_DEPTH = 2000;
    /** A placeholder setting that keeps the three settings' values while the tree is printed. */
    private static final String KEPT = "sqlagent.plan_tree_settings";

    /** Expression nodes a hidden comparison may hold; their functions are read from the fields below. */
    private static final Set<String> EXPRESSION_NODES = Set.of("OPEXPR", "VAR", "PARAM", "CONST", "FUNCEXPR",
            "RELABELTYPE", "BOOLEXPR", "SCALARARRAYOPEXPR", "ROWEXPR", "COERCEVIAIO", "NULLTEST", "BOOLEANTEST",
            "CASEEXPR", "CASEWHEN", "CASETESTEXPR", "COLLATEEXPR", "DISTINCTEXPR", "NULLIFEXPR", "COALESCEEXPR",
            "MINMAXEXPR", "ARRAYCOERCEEXPR", "ARRAYEXPR", "SUBPLAN", "ALTERNATIVESUBPLAN", "FIELDSELECT",
            "ROWCOMPAREEXPR", "CONVERTROWTYPEEXPR", "COERCETODOMAIN", "COERCETODOMAINVALUE", "SUBSCRIPTINGREF",
            "TARGETENTRY");

    /**
     * @param selected per relation oid, the attribute numbers some range-table entry of it selects
     *     (0 is the whole row, below 0 a system column)
     * @param functions the oids of the functions the hidden comparisons call
     * @param unreadable what a hidden comparison holds that could not be read
     */
    record Tree(Map<Long, Set<Integer>> selected, Set<Long> functions, List<String> unreadable) {
    }

    private PgPlanDump() {
    }

    /**
     * Plans the statement again with {@code debug_print_plan} and reads the tree. The settings are set for the
     * transaction only and put back in the same round trip, so a caller's transaction that goes on to run the
     * statement does not print its plan; if the {@code EXPLAIN} fails, the transaction is aborted and its end
     * puts them back.
     *
     * @return the tree, or null when it could not be had (the caller keeps its over-approximation)
     * @throws SQLException if the engine refuses to plan it
     */
    static Tree read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException {
        int major = c.getMetaData().getDatabaseMajorVersion();
        if (major < 12 || major > 16) {
            return null; // before 12 the attribute numbering differs; from 17 on the comparison is printed
        }
        String detail = dump(c, statement, timeoutSeconds);
        return detail == null ? null : tree(detail);
    }

    /**
     * Plans the statement with {@code debug_print_plan} and returns the planner's tree as text, as {@link #read}
     * does, on any server version.
     *
     * @return the tree's text, or null when it could not be had
     * @throws SQLException if the engine refuses to plan it
     */
    static String dump(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException {
        String detail = null;
        int trees = 0;
        // the three settings are kept in a placeholder and put back after the EXPLAIN, in the same round trip
        String prefix = "SELECT pg_catalog.set_config('" + KEPT + "', pg_catalog.current_setting('debug_print_plan') "
                + "|| ',' || pg_catalog.current_setting('debug_pretty_print') || ',' "
                + "|| pg_catalog.current_setting('client_min_messages'), true); "
                + "SELECT pg_catalog.set_config('debug_print_plan', 'on', true), "
                + "pg_catalog.set_config('debug_pretty_print', 'off', true), "
                + "pg_catalog.set_config('client_min_messages', 'log', true); EXPLAIN (COSTS OFF) ";
        String restore = "\n; SELECT pg_catalog.set_config('debug_print_plan', "
                + "pg_catalog.split_part(pg_catalog.current_setting('" + KEPT + "'), ',', 1), true), "
                + "pg_catalog.set_config('debug_pretty_print', "
                + "pg_catalog.split_part(pg_catalog.current_setting('" + KEPT + "'), ',', 2), true), "
                + "pg_catalog.set_config('client_min_messages', "
                + "pg_catalog.split_part(pg_catalog.current_setting('" + KEPT + "'), ',', 3), true)";
        try (PreparedStatement ps = Explain.prepare(c, prefix,
                new SqlStatement(statement.sql() + restore, statement.parameters()), timeoutSeconds)) {
            boolean result = ps.execute();
            while (true) {
                if (result) {
                    ps.getResultSet().close();
                } else if (ps.getUpdateCount() == -1) {
                    break;
                }
                result = ps.getMoreResults();
            }
            for (SQLWarning w = ps.getWarnings(); w != null; w = w.getNextWarning()) {
                String d = detailOf(w);
                if (d != null && d.startsWith("{PLANNEDSTMT")) {
                    detail = trees == 0 ? d : detail;
                    trees++;
                }
            }
        }
        // two trees come back, in order: the statement's, then the one of the SELECT that puts the settings back
        return trees == 2 ? detail : null;
    }

    /** Fields of a plan tree that hold a function's oid (an operator's own function is decided by its operator). */
    private static final Set<String> FUNCTION_FIELDS = Set.of("funcid", "aggfnoid", "winfnoid", "hashfuncid",
            "negfuncid", "startInRangeFunc", "endInRangeFunc", "aggtransfn", "aggfinalfn", "aggcombinefn",
            "aggserialfn", "aggdeserialfn");
    /** Fields of a plan tree that hold operators' oids. */
    private static final Set<String> OPERATOR_FIELDS = Set.of("opno", "opnos", "sortOperators", "grpOperators",
            "uniqOperators", "dupOperators", "hashoperators", "hashOperators", "partOperators", "ordOperators",
            "eqop", "sortop", "mergeOperators");

    /**
     * Every function and operator a plan tree calls, by oid: expressions' {@code funcid} ({@code FuncExpr},
     * casts and coercions included), aggregates' and window functions' oids, operators ({@code OpExpr},
     * {@code DistinctExpr}, {@code NullIfExpr}, {@code ScalarArrayOpExpr}, row comparisons) and the operators
     * of sorts, groupings, hashes and set operations.
     *
     * @param text the tree, as {@link #dump} returns it
     * @return function oids and operator oids
     * @throws PlanReader.PlanNotUnderstood if the text is not such a tree
     */
    static Calls calls(String text) {
        Object root = new Parser(text).value(0);
        Calls out = new Calls(new LinkedHashSet<>(), new LinkedHashSet<>(), new LinkedHashSet<>());
        calls(root, out, 0);
        return out;
    }

    /**
     * @param functions oids of the functions the tree calls
     * @param operators oids of the operators it applies
     * @param columnTypes oids of the types a function in FROM is told its columns have (a column definition
     *     list, {@code AS r(a secret)}), which the plan's text does not print
     */
    record Calls(Set<Long> functions, Set<Long> operators, Set<Long> columnTypes) {
    }

    private static void calls(Object v, Calls out, int depth) {
        if (depth > MAX_DEPTH) {
            throw new PlanReader.PlanNotUnderstood("the plan tree is nested too deeply");
        }
        if (v instanceof Node n) {
            String field = null;
            for (Map.Entry<String, Object> f : n.fields.entrySet()) {
                // an oid array prints as a run of numbers: the first under the field's name, the rest unnamed
                field = f.getKey().startsWith("#") ? field : f.getKey();
                if (FUNCTION_FIELDS.contains(field)) {
                    oids(f.getValue(), out.functions());
                } else if (OPERATOR_FIELDS.contains(field)) {
                    oids(f.getValue(), out.operators());
                } else if ("funccoltypes".equals(field)) {
                    oids(f.getValue(), out.columnTypes());
                }
                calls(f.getValue(), out, depth + 1);
            }
        } else if (v instanceof ListValue l) {
            for (Object o : l.items) {
                calls(o, out, depth + 1);
            }
        }
    }

    /** An oid field: one number, or a list of them ({@code (o 96 97)}, or a plain {@code 96 97} run). */
    private static void oids(Object v, Set<Long> out) {
        if (v instanceof String s) {
            for (String part : s.trim().split("\\s+")) {
                try {
                    long oid = Long.parseLong(part);
                    if (oid != 0) {
                        out.add(oid);
                    }
                } catch (NumberFormatException e) {
                    // not an oid
                }
            }
        } else if (v instanceof ListValue l) {
            for (Object o : l.items) {
                oids(o, out);
            }
        }
    }

    /** A notice's detail, through the driver's own accessors (pgjdbc's {@code getServerErrorMessage().getDetail()}). */
    private static String detailOf(SQLWarning w) {
        try {
            Method m = w.getClass().getMethod("getServerErrorMessage");
            Object message = m.invoke(w);
            if (message == null) {
                return null;
            }
            Object detail = message.getClass().getMethod("getDetail").invoke(message);
            return detail instanceof String s ? s : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Reads a plan tree as PostgreSQL's {@code nodeToString} prints it.
     *
     * @param text the tree
     * @return what it selects and what its hidden comparisons call
     * @throws PlanReader.PlanNotUnderstood if the text is not such a tree
     */
    static Tree tree(String text) {
        Object root = new Parser(text).value(0);
        Map<Long, Set<Integer>> selected = new LinkedHashMap<>();
        Set<Long> functions = new LinkedHashSet<>();
        List<String> unreadable = new ArrayList<>();
        walk(root, selected, functions, unreadable, 0);
        return new Tree(selected, functions, unreadable);
    }

    private static void walk(Object v, Map<Long, Set<Integer>> selected, Set<Long> functions, List<String> unreadable,
                             int depth) {
        if (depth > MAX_DEPTH) {
            throw new PlanReader.PlanNotUnderstood("the plan tree is nested too deeply");
        }
        if (v instanceof Node n) {
            // an entry whose permissions are checked (up to 15 the range-table entry, from 16 its permission
            // entry); an inheritance child's copy checks nothing and may count its parent's attribute numbers
            if ((n.type.equals("RANGETBLENTRY") || n.type.equals("RTEPERMISSIONINFO"))
                    && n.fields.containsKey("selectedCols") && !"0".equals(scalar(n.fields.get("requiredPerms")))) {
                long relid = number(n.fields.get("relid"), "relid");
                Set<Integer> cols = selected.computeIfAbsent(relid, k -> new LinkedHashSet<>());
                if (n.fields.get("selectedCols") instanceof ListValue bits) {
                    for (Object b : bits.items) {
                        cols.add((int) number(b, "selectedCols") + FIRST_LOW_INVALID_ATTNO);
                    }
                }
            }
            if (n.type.equals("SUBPLAN")) {
                hidden(n.fields.get("testexpr"), functions, unreadable, depth + 1);
                hidden(n.fields.get("args"), functions, unreadable, depth + 1);
            }
            for (Object f : n.fields.values()) {
                walk(f, selected, functions, unreadable, depth + 1);
            }
        } else if (v instanceof ListValue l) {
            for (Object o : l.items) {
                walk(o, selected, functions, unreadable, depth + 1);
            }
        }
    }

    /** The functions of an expression the plan's text does not show; a node that is not an expression is unreadable. */
    private static void hidden(Object v, Set<Long> functions, List<String> unreadable, int depth) {
        if (depth > MAX_DEPTH) {
            throw new PlanReader.PlanNotUnderstood("the plan tree is nested too deeply");
        }
        if (v instanceof Node n) {
            if (!EXPRESSION_NODES.contains(n.type)) {
                unreadable.add("a " + n.type + " in a sub-plan's hidden comparison");
                return;
            }
            if (n.type.equals("FUNCEXPR")) {
                String format = scalar(n.fields.get("funcformat"));
                // 0: a call as written, 3: SQL syntax (EXTRACT, SUBSTRING … FROM); 1 and 2 are casts
                if (!"1".equals(format) && !"2".equals(format)) {
                    functions.add(number(n.fields.get("funcid"), "funcid"));
                }
            }
            if (n.type.equals("SUBPLAN")) {
                return; // its own comparison is read where the walk meets it
            }
            for (Object f : n.fields.values()) {
                hidden(f, functions, unreadable, depth + 1);
            }
        } else if (v instanceof ListValue l) {
            for (Object o : l.items) {
                hidden(o, functions, unreadable, depth + 1);
            }
        }
    }

    private static String scalar(Object v) {
        return v instanceof String s ? s : null;
    }

    private static long number(Object v, String field) {
        if (v instanceof String s) {
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                // below
            }
        }
        throw new PlanReader.PlanNotUnderstood("the plan tree's " + field + " is not a number: " + v);
    }

    /** {@code {TYPE :field value …}}. */
    record Node(String type, Map<String, Object> fields) {
    }

    /** {@code (…)}, with its kind ({@code b}, {@code i}, {@code o}, {@code x}) when it has one. */
    record ListValue(String kind, List<Object> items) {
    }

    /** Reads {@code nodeToString}'s output: nodes, lists, {@code <>} (null), words and quoted strings. */
    private static final class Parser {
        private final String s;
        private int i;

        Parser(String s) {
            this.s = s;
        }

        Object value(int depth) {
            if (depth > MAX_DEPTH) {
                throw new PlanReader.PlanNotUnderstood("the plan tree is nested too deeply");
            }
            skipSpace();
            if (i >= s.length()) {
                throw new PlanReader.PlanNotUnderstood("the plan tree ends early");
            }
            char ch = s.charAt(i);
            if (ch == '{') {
                i++;
                String type = word();
                Map<String, Object> fields = new LinkedHashMap<>();
                while (true) {
                    skipSpace();
                    if (i >= s.length()) {
                        throw new PlanReader.PlanNotUnderstood("the plan tree ends inside a " + type);
                    }
                    if (s.charAt(i) == '}') {
                        i++;
                        return new Node(type, fields);
                    }
                    if (s.charAt(i) != ':') {
                        // a value without a field name (a Const's datum bytes): kept under its position
                        fields.put("#" + fields.size(), value(depth + 1));
                        continue;
                    }
                    i++;
                    String field = word();
                    skipSpace();
                    if (i < s.length() && (s.charAt(i) == ':' || s.charAt(i) == '}')) {
                        fields.put(field, null); // an empty field
                        continue;
                    }
                    fields.put(field, value(depth + 1));
                }
            }
            if (ch == '(') {
                i++;
                List<Object> items = new ArrayList<>();
                String kind = null;
                skipSpace();
                if (i + 1 < s.length() && "biox".indexOf(s.charAt(i)) >= 0
                        && (Character.isWhitespace(s.charAt(i + 1)) || s.charAt(i + 1) == ')')) {
                    kind = String.valueOf(s.charAt(i));
                    i++;
                }
                while (true) {
                    skipSpace();
                    if (i >= s.length()) {
                        throw new PlanReader.PlanNotUnderstood("the plan tree ends inside a list");
                    }
                    if (s.charAt(i) == ')') {
                        i++;
                        return new ListValue(kind, items);
                    }
                    items.add(value(depth + 1));
                }
            }
            if (ch == '<' && s.startsWith("<>", i)) {
                i += 2;
                return null;
            }
            if (ch == '"') {
                StringBuilder b = new StringBuilder();
                i++;
                while (i < s.length() && s.charAt(i) != '"') {
                    if (s.charAt(i) == '\\' && i + 1 < s.length()) {
                        i++;
                    }
                    b.append(s.charAt(i++));
                }
                if (i >= s.length()) {
                    throw new PlanReader.PlanNotUnderstood("the plan tree ends inside a string");
                }
                i++;
                return b.toString();
            }
            if (ch == '}' || ch == ')') {
                throw new PlanReader.PlanNotUnderstood("the plan tree has an unmatched '" + ch + "'");
            }
            return word();
        }

        private String word() {
            StringBuilder b = new StringBuilder();
            while (i < s.length()) {
                char ch = s.charAt(i);
                if (ch == '\\' && i + 1 < s.length()) {
                    b.append(s.charAt(i + 1));
                    i += 2;
                    continue;
                }
                if (Character.isWhitespace(ch) || ch == '{' || ch == '}' || ch == '(' || ch == ')') {
                    break;
                }
                b.append(ch);
                i++;
            }
            if (b.length() == 0) {
                throw new PlanReader.PlanNotUnderstood("the plan tree has an empty token at " + i);
            }
            return b.toString();
        }

        private void skipSpace() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }
}
