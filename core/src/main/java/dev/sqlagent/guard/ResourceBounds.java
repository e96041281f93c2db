package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.HexValue;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.WhenClause;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Concat;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Bounds the functions of class {@link FunctionClass#EXPANDS_RESOURCES} before a statement runs: the size
 * of the result is estimated from the constant arguments ({@code repeat('x', 1000000)} is a megabyte),
 * nested calls multiply ({@code repeat(repeat('x', 1000), 1000)}), and a result over
 * {@link GuardPolicy#maxExpandedBytes()} is a {@link ViolationType#RESOURCE_LIMIT}. A size argument that is
 * not a constant ({@code repeat('x', t.n)}, a {@code printf} width taken from a column) is refused too, unless
 * it is a remainder by a constant ({@code MOD(t.n, 5)}, {@code t.n % 5}, bounded by the constant): the
 * guard cannot bound it, and the engine would allocate whatever the data says (on H2 inside the host's own
 * heap). A string argument that is not a constant (a column, a subquery) counts as
 * {@value #NOMINAL_OPERAND} bytes: what a function adds on top of stored data is bounded; what the data
 * holds is not the guard's to bound.
 *
 * <p>H2 runs inside the host's JVM with no cap of its own on a value's size (its strings may reach
 * 10<sup>9</sup> characters): on H2 the aggregates that collect their whole input ({@code LISTAGG},
 * {@code STRING_AGG}, {@code ARRAY_AGG}, {@code GROUP_CONCAT}, {@code JSON_ARRAYAGG}, {@code JSON_OBJECTAGG},
 * {@code HISTOGRAM}) and a recursive CTE whose recursive member grows a value (concatenation, an expanding
 * function, an array) are refused as well, since their size depends on the data and a cross join multiplies
 * it. SQLite caps every string and blob itself ({@code SqliteLimits}); PostgreSQL and MariaDB allocate on
 * the server, inside their own limits. A policy whose cap is {@link Long#MAX_VALUE} turns these checks off.
 * Stateless.
 */
final class ResourceBounds {

    /** The size a non-constant string operand counts for, in bytes. */
    static final long NOMINAL_OPERAND = 256;

    /** Functions that split a string into a list of its pieces (DuckDB's names). */
    /** Series whose rows {@code unnest} yields, bounded by their constant arguments. */
    private static final java.util.Set<String> SERIES = java.util.Set.of("range", "generate_series");

    private static final java.util.Set<String> SPLITS = java.util.Set.of("string_split", "str_split", "string_to_array",
            "split", "regexp_split_to_array");

    private static final long NUMBER = 24;

    /** Functions a recursive member grows a value with, on H2. */
    private static final Pattern GROWTH = Pattern.compile("\\|\\||\\b(concat|concat_ws|repeat|space|lpad|rpad|replace"
            + "|regexp_replace|insert|rawtohex|array_append|array_cat|array_agg|listagg|string_agg|group_concat)\\s*\\(",
            Pattern.CASE_INSENSITIVE);

    private static final Pattern PRINTF_SPEC = Pattern.compile("%(\\d+\\$)?([-+ #0,!']*)(\\*(?:\\d+\\$)?|\\d+)?"
            + "(?:\\.(\\*|\\d+))?([a-zA-Z%])");

    private ResourceBounds() {
    }

    /**
     * Checks one call.
     *
     * @param node a {@link Function} or {@link AnalyticExpression} of the statement
     * @param dialect the statement's dialect
     * @param policy the policy (its cap)
     * @return the violation, or empty when the call is bounded or not an expanding one
     */
    static Optional<Violation> check(Object node, Dialect dialect, GuardPolicy policy) {
        long cap = policy.maxExpandedBytes();
        if (cap == Long.MAX_VALUE) {
            return Optional.empty();
        }
        String name;
        if (node instanceof Function) {
            name = ((Function) node).getName();
        } else if (node instanceof AnalyticExpression) {
            name = ((AnalyticExpression) node).getName();
        } else {
            return Optional.empty();
        }
        if (name == null) {
            return Optional.empty();
        }
        String n = bare(name);
        if (!(node instanceof Function)
                || FunctionCatalog.of(dialect).classOf(n).orElse(null) != FunctionClass.EXPANDS_RESOURCES) {
            return Optional.empty();
        }
        try {
            long size = new Estimator(dialect).size((Function) node);
            if (size > cap) {
                return Optional.of(new Violation(ViolationType.RESOURCE_LIMIT, AstAnalyzer.shorten(node.toString()),
                        n + " would build about " + size + " bytes, over the cap of " + cap));
            }
            return Optional.empty();
        } catch (Unbounded e) {
            return Optional.of(new Violation(ViolationType.RESOURCE_LIMIT, AstAnalyzer.shorten(node.toString()),
                    e.getMessage()));
        }
    }

    /**
     * On H2, checks one query block: an aggregate that collects its whole input ({@code LISTAGG}, …) over more
     * than one stored table (a join, a derived table, a CTE, which may multiply rows) is refused, as is a
     * recursive CTE of its {@code WITH} list whose recursive member grows a value (concatenation, an
     * expanding function, an array), since each step may double it in the host's heap. An aggregate over one
     * stored table is bounded by what the table holds.
     *
     * @param select a query block of the statement, with its {@code WITH} list
     * @param dialect the statement's dialect
     * @param policy the policy (its cap)
     * @param isCte whether a table name (as written) is a CTE in scope
     * @return the violation, or empty
     */
    static Optional<Violation> checkSelect(Select select, Dialect dialect, GuardPolicy policy,
                                           java.util.function.Predicate<String> isCte) {
        if (!Engines.of(dialect).guard().boundsExpansion() || policy.maxExpandedBytes() == Long.MAX_VALUE || select == null) {
            return Optional.empty();
        }
        List<WithItem<?>> with = select.getWithItemsList();
        if (with != null) {
            for (WithItem<?> w : with) {
                if (w != null && w.isRecursive()) {
                    Optional<Violation> v = checkRecursive(w);
                    if (v.isPresent()) {
                        return v;
                    }
                }
            }
        }
        if (!(select instanceof PlainSelect)) {
            return Optional.empty();
        }
        PlainSelect ps = (PlainSelect) select;
        StringBuilder items = new StringBuilder();
        if (ps.getSelectItems() != null) {
            for (SelectItem<?> item : ps.getSelectItems()) {
                items.append(item).append(' ');
            }
        }
        items.append(ps.getHaving()).append(' ').append(ps.getOrderByElements());
        Matcher m = COLLECTING_CALL.matcher(items);
        if (!m.find()) {
            return Optional.empty();
        }
        boolean oneStoredTable = (ps.getJoins() == null || ps.getJoins().isEmpty())
                && ps.getFromItem() instanceof net.sf.jsqlparser.schema.Table
                && !isCte.test(((net.sf.jsqlparser.schema.Table) ps.getFromItem()).getName());
        if (oneStoredTable) {
            return Optional.empty();
        }
        return Optional.of(new Violation(ViolationType.RESOURCE_LIMIT, AstAnalyzer.shorten(m.group()),
                "on H2 an aggregate that collects its whole input (" + m.group(1).toLowerCase(Locale.ROOT) + ") may "
                        + "read one stored table only: over a join, a derived table or a CTE its input can multiply,"
                        + " and H2 builds it in the host's heap with no size cap"));
    }

    private static final Pattern COLLECTING_CALL = Pattern.compile("(?i)\\b(listagg|string_agg|array_agg|group_concat"
            + "|json_arrayagg|json_objectagg|histogram)\\s*\\(");

    private static Optional<Violation> checkRecursive(WithItem<?> with) {
        Object body = with.getParenthesedStatement();
        Select select = body instanceof ParenthesedSelect ? ((ParenthesedSelect) body).getSelect() : null;
        if (!(select instanceof SetOperationList)) {
            return Optional.empty();
        }
        List<Select> members = ((SetOperationList) select).getSelects();
        for (int i = 1; i < members.size(); i++) {
            Select member = members.get(i);
            if (!(member instanceof PlainSelect) || ((PlainSelect) member).getSelectItems() == null) {
                continue;
            }
            PlainSelect ps = (PlainSelect) member;
            if (ps.getWhere() == null && (ps.getJoins() == null || ps.getJoins().isEmpty())) {
                // nothing stops it but the timeout, and H2 keeps every row it makes in the host's heap: a
                // fast generator fills the heap before the timeout fires (seen under load with -Xmx256m)
                return Optional.of(new Violation(ViolationType.RESOURCE_LIMIT, AstAnalyzer.shorten(with.toString()),
                        "on H2 a recursive CTE's recursive member needs a condition (WHERE or a join) that ends it"));
            }
            for (SelectItem<?> item : ((PlainSelect) member).getSelectItems()) {
                Matcher m = GROWTH.matcher(String.valueOf(item.getExpression()));
                if (m.find()) {
                    return Optional.of(new Violation(ViolationType.RESOURCE_LIMIT, AstAnalyzer.shorten(with.toString()),
                            "on H2 a recursive CTE may not grow a value (" + m.group().trim() + "): each step may "
                                    + "double it in the host's heap, which H2 does not cap"));
                }
            }
        }
        return Optional.empty();
    }

    private static String bare(String name) {
        String n = Names.lower(Names.unquote(name.trim()));
        return n.substring(n.lastIndexOf('.') + 1);
    }

    /** A size argument the guard cannot bound. */
    private static final class Unbounded extends Exception {
        private static final long serialVersionUID = 1L;

        Unbounded(String message) {
            super(message, null, false, false);
        }
    }

    /** Estimates sizes in bytes (characters count as bytes), saturating at {@link Long#MAX_VALUE}. */
    private static final class Estimator {
        private final Dialect dialect;
        private final FunctionCatalog catalog;

        Estimator(Dialect dialect) {
            this.dialect = dialect;
            this.catalog = FunctionCatalog.of(dialect);
        }

        long size(Expression e) throws Unbounded {
            if (e == null || e instanceof NullValue) {
                return 0;
            }
            if (e instanceof StringValue) {
                return ((StringValue) e).getValue().length();
            }
            if (e instanceof HexValue) {
                return Math.max(1, ((HexValue) e).getValue().length() / 2);
            }
            if (e instanceof LongValue || e instanceof DoubleValue || e instanceof SignedExpression) {
                return NUMBER;
            }
            if (e instanceof Concat) {
                return add(size(((Concat) e).getLeftExpression()), size(((Concat) e).getRightExpression()));
            }
            if (e instanceof CastExpression) {
                return size(((CastExpression) e).getLeftExpression());
            }
            if (e instanceof ExpressionList) {
                long total = 0;
                for (Object o : (ExpressionList<?>) e) {
                    total = add(total, size((Expression) o));
                }
                return total;
            }
            if (e instanceof CaseExpression) {
                CaseExpression c = (CaseExpression) e;
                long max = size(c.getElseExpression());
                if (c.getWhenClauses() != null) {
                    for (WhenClause w : c.getWhenClauses()) {
                        max = Math.max(max, size(w.getThenExpression()));
                    }
                }
                return max;
            }
            if (e instanceof Function) {
                return size((Function) e);
            }
            if (e instanceof net.sf.jsqlparser.expression.JsonFunction) {
                // JSON_OBJECT / JSON_ARRAY: every key and value, escaped (a control character is six bytes)
                net.sf.jsqlparser.expression.JsonFunction f = (net.sf.jsqlparser.expression.JsonFunction) e;
                long total = 2;
                for (net.sf.jsqlparser.expression.JsonKeyValuePair p : f.getKeyValuePairs()) {
                    total = add(total, add(8, mul(6, add(part(p.getKey()), part(p.getValue())))));
                }
                for (net.sf.jsqlparser.expression.JsonFunctionExpression x : f.getExpressions()) {
                    total = add(total, add(4, mul(6, size(x.getExpression()))));
                }
                return total;
            }
            return NOMINAL_OPERAND;
        }

        /** A JSON key or value: an expression, or a key the parser holds as its text. */
        private long part(Object o) throws Unbounded {
            return o instanceof Expression ? size((Expression) o) : o == null ? 0 : o.toString().length();
        }

        long size(Function f) throws Unbounded {
            String n = bare(f.getName());
            List<Expression> args = args(f);
            boolean expands = catalog.classOf(n).orElse(null) == FunctionClass.EXPANDS_RESOURCES;
            if (!expands) {
                long total = 0;
                for (Expression a : args) {
                    total = add(total, size(a));
                }
                return Math.max(total, NUMBER);
            }
            switch (n) {
                case "repeat":
                case "replicate":
                    return mul(size(arg(args, 0)), count(n, args, 1));
                case "space":
                case "zeroblob":
                case "randomblob":
                case "random_bytes":
                case "secure_rand":
                    return count(n, args, 0);
                case "lpad":
                case "rpad":
                case "lpad_oracle":
                case "rpad_oracle":
                case "padl":
                case "padr":
                case "padc":
                    return Math.max(count(n, args, 1), size(arg(args, 0)));
                case "replace":
                case "replace_oracle": {
                    long from = args.size() > 1 ? size(args.get(1)) : 1;
                    long to = args.size() > 2 ? size(args.get(2)) : 0;
                    long factor = Math.max(1, (to + Math.max(1, from) - 1) / Math.max(1, from));
                    return mul(size(arg(args, 0)), factor);
                }
                case "regexp_replace":
                    // an empty match at every character inserts the replacement once per character
                    return mul(add(size(arg(args, 0)), 1), add(args.size() > 2 ? size(args.get(2)) : 0, 1));
                case "hex":
                case "quote":
                    return mul(size(arg(args, 0)), 2);
                case "rawtohex":
                    return mul(size(arg(args, 0)), 4);
                case "insert":
                    return add(size(arg(args, 0)), size(arg(args, args.size() - 1)));
                case "export_set":
                    return mul(64, add(add(size(arg(args, 1)), size(arg(args, 2))), size(arg(args, 3))));
                case "printf":
                case "format":
                    return format(args, Engines.of(dialect).guard().formatQuotes());
                case "sformat":
                    return sformat(args);
                case "generate_series":
                case "system_range":
                    return mul(series(n, args), NUMBER);
                case "range":
                    // DuckDB's range(stop) counts from 0; range(start, stop [, step]) as generate_series
                    return mul(series(n, args.size() == 1 ? List.of(new LongValue(0), args.get(0)) : args), NUMBER);
                case "unnest":
                    // a list literal ([1, 2, 3]) unnests to its own elements: bounded by what the statement spells
                    if (arg(args, 0) instanceof net.sf.jsqlparser.expression.ArrayConstructor) {
                        return size(((net.sf.jsqlparser.expression.ArrayConstructor) arg(args, 0)).getExpressions());
                    }
                    // a string split into pieces (string_split(city, ',')): no more pieces than characters, none
                    // longer than the string, itself bounded like any value
                    if (arg(args, 0) instanceof Function split && SPLITS.contains(bare(split.getName()))
                            && catalog.classOf(bare(split.getName())).orElse(null) == FunctionClass.SAFE_SCALAR) {
                        return size(split);
                    }
                    // a series of constant bounds (unnest(range(5)), unnest(generate_series(1, 3))): its own rows
                    if (arg(args, 0) instanceof Function series && SERIES.contains(bare(series.getName()))) {
                        return size(series);
                    }
                    throw new Unbounded("unnest expands its input by an amount the guard cannot bound before it runs");
                case "array_fill": {
                    long cells = 1;
                    Expression dims = arg(args, 1);
                    if (dims instanceof net.sf.jsqlparser.expression.ArrayConstructor) {
                        for (Expression d : ((net.sf.jsqlparser.expression.ArrayConstructor) dims).getExpressions()) {
                            cells = mul(cells, constant(n, d));
                        }
                    } else {
                        throw new Unbounded("array_fill needs its dimensions as a constant ARRAY[...]");
                    }
                    return mul(cells, Math.max(NUMBER, size(arg(args, 0))));
                }
                default:
                    throw new Unbounded(n + " expands its input by an amount the guard cannot bound before it runs");
            }
        }

        /** A {@code printf}/{@code format} call: the format string must be constant, and so must each width. */
        private long format(List<Expression> args, boolean postgres) throws Unbounded {
            Expression fmt = arg(args, 0);
            if (!(fmt instanceof StringValue)) {
                throw new Unbounded("the format string of printf/format must be a constant");
            }
            String f = ((StringValue) fmt).getValue();
            long total = f.length();
            int next = 1;
            Matcher m = PRINTF_SPEC.matcher(f);
            while (m.find()) {
                if (m.group(5).equals("%")) {
                    continue;
                }
                long width = 0;
                if (m.group(3) != null) {
                    if (m.group(3).startsWith("*")) {
                        width = magnitude("a * width", arg(args, next++));
                    } else {
                        width = Long.parseLong(m.group(3));
                    }
                }
                long precision = 0;
                if (m.group(4) != null) {
                    precision = m.group(4).equals("*") ? magnitude("a * precision", arg(args, next++))
                            : Long.parseLong(m.group(4));
                }
                long value = NUMBER;
                if (m.group(1) != null) {
                    int pos = Integer.parseInt(m.group(1).substring(0, m.group(1).length() - 1));
                    value = size(arg(args, pos));
                } else if (next < args.size()) {
                    value = size(args.get(next++));
                }
                // SQLite's %c repeats its character precision times; %s and %q cut at precision
                total = add(total, Math.max(Math.max(width, precision), value));
            }
            if (postgres && total < 0) {
                throw new Unbounded("format");
            }
            return total;
        }

        /** MariaDB's {@code sformat} (fmtlib): widths inside the braces must be constant numbers. */
        private long sformat(List<Expression> args) throws Unbounded {
            Expression fmt = arg(args, 0);
            if (!(fmt instanceof StringValue)) {
                throw new Unbounded("the format string of sformat must be a constant");
            }
            String f = ((StringValue) fmt).getValue();
            if (f.contains("{{") || f.matches("(?s).*\\{[^}]*\\{.*")) {
                throw new Unbounded("sformat with a width taken from an argument cannot be bounded");
            }
            long total = f.length();
            Matcher m = Pattern.compile("\\{[^}:]*:[^}0-9]*(\\d+)").matcher(f);
            while (m.find()) {
                total = add(total, Long.parseLong(m.group(1)));
            }
            for (int i = 1; i < args.size(); i++) {
                total = add(total, size(args.get(i)));
            }
            return total;
        }

        /** The number of rows of a series from constant bounds: numbers, or dates with an interval step. */
        private long series(String n, List<Expression> args) throws Unbounded {
            Expression start = arg(args, 0);
            Expression stop = arg(args, 1);
            BigDecimal a = number(start);
            BigDecimal b = number(stop);
            if (a != null && b != null) {
                BigDecimal step = args.size() > 2 ? number(args.get(2)) : BigDecimal.ONE;
                if (step == null) {
                    throw new Unbounded(n + " needs a constant step");
                }
                if (step.signum() == 0) {
                    throw new Unbounded(n + " with a step of zero never ends");
                }
                BigDecimal rows = b.subtract(a).divide(step, 0, java.math.RoundingMode.DOWN).add(BigDecimal.ONE);
                return rows.signum() <= 0 ? 0 : rows.min(BigDecimal.valueOf(Long.MAX_VALUE / 64)).longValue();
            }
            LocalDateTime from = timestamp(start);
            LocalDateTime to = timestamp(stop);
            Long stepSeconds = args.size() > 2 ? interval(args.get(2)) : null;
            if (from == null || to == null || stepSeconds == null || stepSeconds <= 0) {
                throw new Unbounded(n + " needs constant bounds and a constant step to be bounded");
            }
            long seconds = Math.abs(ChronoUnit.SECONDS.between(from, to));
            return seconds / stepSeconds + 1;
        }

        private static LocalDateTime timestamp(Expression e) {
            Expression inner = e instanceof CastExpression ? ((CastExpression) e).getLeftExpression() : e;
            String text = inner instanceof StringValue ? ((StringValue) inner).getValue()
                    : inner instanceof net.sf.jsqlparser.expression.DateTimeLiteralExpression
                    ? ((net.sf.jsqlparser.expression.DateTimeLiteralExpression) inner).getValue().replace("'", "")
                    : null;
            if (text == null) {
                return null;
            }
            String t = text.trim().replace(' ', 'T');
            try {
                return t.length() <= 10 ? LocalDate.parse(t).atStartOfDay() : LocalDateTime.parse(t);
            } catch (DateTimeParseException ex) {
                return null;
            }
        }

        private static final Pattern INTERVAL = Pattern.compile("(?i)\\s*(\\d+)\\s*(second|minute|hour|day|week|month"
                + "|year)s?\\s*");
        private static final Map<String, Long> SECONDS = Map.of("second", 1L, "minute", 60L, "hour", 3600L,
                "day", 86_400L, "week", 604_800L, "month", 2_419_200L, "year", 31_536_000L);

        /** A constant interval step in seconds (a month counts as 28 days, so the estimate errs high). */
        private static Long interval(Expression e) {
            Expression inner = e instanceof CastExpression ? ((CastExpression) e).getLeftExpression() : e;
            String text = null;
            if (inner instanceof StringValue) {
                text = ((StringValue) inner).getValue();
            } else if (inner instanceof net.sf.jsqlparser.expression.IntervalExpression) {
                text = inner.toString().replaceFirst("(?i)^\\s*INTERVAL", "").replace("'", "");
            }
            if (text == null) {
                return null;
            }
            Matcher m = INTERVAL.matcher(text);
            if (!m.matches()) {
                return null;
            }
            return Long.parseLong(m.group(1)) * SECONDS.get(m.group(2).toLowerCase(Locale.ROOT));
        }

        /**
         * A size argument: a constant whole number, or an expression bounded by a constant ({@link #remainderBound});
         * anything else is refused. A negative size counts as none.
         */
        private long constant(String function, Expression e) throws Unbounded {
            BigDecimal v = bounded(function, e);
            if (v.signum() < 0) {
                return 0;
            }
            return v.min(BigDecimal.valueOf(Long.MAX_VALUE)).longValue();
        }

        /**
         * A width whose sign only chooses the side it pads on ({@code printf('%*d', -20, x)} pads to 20 on the
         * right): its magnitude, from a constant or a bounded expression ({@link #remainderBound}).
         */
        private long magnitude(String function, Expression e) throws Unbounded {
            return bounded(function, e).abs().min(BigDecimal.valueOf(Long.MAX_VALUE)).longValue();
        }

        /** A size argument's constant value or the constant that bounds it; anything else is unbounded. */
        private BigDecimal bounded(String function, Expression e) throws Unbounded {
            BigDecimal v = number(e);
            if (v == null) {
                v = remainderBound(e);
            }
            if (v == null) {
                throw new Unbounded("the size argument of " + function + " must be a constant, not " + e
                        + ": the guard cannot bound it");
            }
            return v;
        }

        /**
         * An upper bound of the magnitude of a remainder by a constant: {@code MOD(x, c)} or {@code x % c} (also
         * through a cast or parentheses) with a constant whole {@code c} other than zero lies strictly between
         * {@code -|c|} and {@code |c|} on every engine whatever {@code x} is (the remainder takes the dividend's
         * sign); {@code |c|} is returned, not {@code |c| - 1}, since an engine may round a fractional remainder
         * ({@code MOD(4.9, 5)}) up when it takes it as a count. Null for anything else: a size from data is
         * not bounded. {@code mod} counts only unqualified (a schema's {@code s.mod} may be anything).
         */
        static BigDecimal remainderBound(Expression e) {
            Expression divisor = null;
            if (e instanceof CastExpression) {
                return remainderBound(((CastExpression) e).getLeftExpression());
            }
            if (e instanceof ExpressionList && ((ExpressionList<?>) e).size() == 1) {
                return remainderBound((Expression) ((ExpressionList<?>) e).get(0));
            }
            if (e instanceof Modulo) {
                divisor = ((Modulo) e).getRightExpression();
            } else if (e instanceof Function f && f.getMultipartName() != null && f.getMultipartName().size() == 1
                    && bare(f.getName()).equals("mod") && f.getParameters() != null && f.getParameters().size() == 2
                    && f.getNamedParameters() == null) {
                divisor = (Expression) f.getParameters().get(1);
            }
            BigDecimal c = divisor == null ? null : number(divisor);
            if (c == null || c.signum() == 0 || c.stripTrailingZeros().scale() > 0) {
                return null;
            }
            return c.abs();
        }

        private long count(String function, List<Expression> args, int index) throws Unbounded {
            return constant(function, arg(args, index));
        }

        /** The value of a constant numeric expression, or null. */
        static BigDecimal number(Expression e) {
            try {
                if (e instanceof LongValue) {
                    return new BigDecimal(((LongValue) e).getStringValue());
                }
                if (e instanceof DoubleValue) {
                    return BigDecimal.valueOf(((DoubleValue) e).getValue());
                }
                if (e instanceof StringValue) {
                    return new BigDecimal(((StringValue) e).getValue().trim());
                }
            } catch (NumberFormatException ex) {
                return null;
            }
            if (e instanceof SignedExpression) {
                BigDecimal v = number(((SignedExpression) e).getExpression());
                return v == null ? null : ((SignedExpression) e).getSign() == '-' ? v.negate() : v;
            }
            if (e instanceof CastExpression) {
                return number(((CastExpression) e).getLeftExpression());
            }
            if (e instanceof ExpressionList && ((ExpressionList<?>) e).size() == 1) {
                return number((Expression) ((ExpressionList<?>) e).get(0));
            }
            if (e instanceof Addition || e instanceof Subtraction || e instanceof Multiplication
                    || e instanceof Division) {
                net.sf.jsqlparser.expression.BinaryExpression b = (net.sf.jsqlparser.expression.BinaryExpression) e;
                BigDecimal l = number(b.getLeftExpression());
                BigDecimal r = number(b.getRightExpression());
                if (l == null || r == null) {
                    return null;
                }
                if (e instanceof Addition) {
                    return l.add(r);
                }
                if (e instanceof Subtraction) {
                    return l.subtract(r);
                }
                if (e instanceof Multiplication) {
                    return l.multiply(r);
                }
                return r.signum() == 0 ? null : l.divide(r, 0, java.math.RoundingMode.UP);
            }
            return null;
        }

        private static List<Expression> args(Function f) {
            ExpressionList<?> p = f.getParameters();
            if (p == null) {
                return List.of();
            }
            return List.<Expression>copyOf(p);
        }

        private static Expression arg(List<Expression> args, int i) {
            return i >= 0 && i < args.size() ? args.get(i) : null;
        }

        private static long add(long a, long b) {
            long r = a + b;
            return r < 0 ? Long.MAX_VALUE : r;
        }

        private static long mul(long a, long b) {
            if (a == 0 || b == 0) {
                return 0;
            }
            return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
        }
    }
}
