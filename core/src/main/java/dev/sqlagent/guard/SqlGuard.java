package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import dev.sqlagent.engine.Respelled;
import dev.sqlagent.engine.Respelling;
import dev.sqlagent.engine.SqlLexer;
import dev.sqlagent.execution.SqlStatement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.JdbcNamedParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.LateralSubSelect;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;

/**
 * The security guard: every candidate SQL passes it before it may run. Pure and thread-safe.
 *
 * <p>In order: a length cap; the engine-exact lexer of the dialect ({@code SqlLexer}), which refuses
 * comments of every kind, literals the parser and the database may read differently, placeholders,
 * control and non-ASCII characters outside literals, and nesting too deep; a parse on the caller's
 * thread under a time cap, with JSqlParser's lexical switches set from the dialect; the parser's own
 * tokens aligned with the lexer's (any disagreement is refused); exactly one statement, a query; a walk
 * of every node of the tree that refuses unknown constructs and resolves every table against the CTEs in
 * scope; the table, column, pseudo-column, star, function and probe rules of the {@link GuardPolicy};
 * then the rewrite: the mandatory row filters (bound parameters) and the row cap, and the tree printed
 * back as the SQL to run, which the lexer reads once more.
 *
 * <p>The SQL that runs is always the guard's own printing of the tree it checked, never the text it was
 * given.
 */
public final class SqlGuard {

    private static final String PLACEHOLDER = "sqlagent_p";

    /**
     * Pseudo-columns that name a table's integer primary key whatever its declared name: SQLite's
     * {@code rowid}, {@code _rowid_}, {@code oid}; MySQL's and MariaDB's {@code _rowid}; H2's
     * {@code _rowid_}; PostgreSQL's {@code ctid} and {@code oid}. On a table with denied columns they
     * are denied too, in every dialect (the key may be the denied column).
     */
    static final Set<String> PSEUDO_COLUMNS = Set.of("rowid", "_rowid_", "oid", "_rowid", "ctid");

    /** Characters of SQL (given and rewritten) the verdict cache holds at most per policy (64 policies at most). */
    static final long CACHED_CHARS_PER_POLICY = 100_000;

    private final ParseRunner parser;
    /**
     * Verdicts already given, by policy (compared by identity, held weakly) and by dialect and SQL: the
     * same statement under the same policy gets the same verdict (the guard is pure), so a candidate the
     * model repeats, an example shown with every question and a repair's SQL are parsed once. A parse
     * time-out (which depends on the machine's load) and a stack overflow (on the thread's stack) are
     * never kept.
     */
    private final com.github.benmanes.caffeine.cache.Cache<GuardPolicy, com.github.benmanes.caffeine.cache.Cache<String,
            GuardVerdict>> verdicts = com.github.benmanes.caffeine.cache.Caffeine.newBuilder().weakKeys()
            .maximumSize(64).build();

    private SqlGuard(java.util.function.Supplier<ScheduledExecutorService> watchdog) {
        this.parser = new ParseRunner(watchdog);
    }

    /**
     * Returns the shared guard. Its parse time-outs are raised by one daemon watchdog thread that the
     * library shares: started on first use, and stopped when the last {@code SqlAgent} using it is closed
     * (a later use starts it again).
     *
     * @return the shared guard
     */
    public static SqlGuard create() {
        return DefaultHolder.INSTANCE;
    }

    /**
     * Creates a guard whose parse time-outs are raised on the given scheduler.
     *
     * @param watchdog the scheduler on which one periodic sweep raises parse time-outs (the parse itself
     *                 runs on the caller's thread; the sweep only sets a flag); it must stay running for
     *                 the guard's lifetime and is not shut down by the guard
     * @return a guard using it
     */
    public static SqlGuard create(ScheduledExecutorService watchdog) {
        Objects.requireNonNull(watchdog, "watchdog");
        return new SqlGuard(() -> watchdog);
    }

    private static final class DefaultHolder {
        private static final SqlGuard INSTANCE = new SqlGuard(
                dev.sqlagent.internal.LibraryThreads.GUARD_WATCHDOG::current);
    }

    /**
     * Checks one SQL. Never throws on hostile input: every failure is a verdict.
     *
     * @param sql the SQL, as cleaned from a model reply
     * @param policy what is allowed
     * @param dialect the database's dialect (quoting, identifier case, row-limit form)
     * @return the verdict, never null: {@link GuardVerdict.Accepted} with the SQL to run (rewritten) and
     *         its parameters, {@link GuardVerdict.Rejected} with every violation found, or
     *         {@link GuardVerdict.Unparseable} for a syntax error (correctable, never executed)
     * @throws NullPointerException if an argument is null
     */
    public GuardVerdict check(String sql, GuardPolicy policy, Dialect dialect) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(dialect, "dialect");
        if (sql.length() > policy.maxSqlLength()) {
            return checkOnce(sql, policy, dialect);
        }
        com.github.benmanes.caffeine.cache.Cache<String, GuardVerdict> byPolicy = verdicts.get(policy,
                p -> com.github.benmanes.caffeine.cache.Caffeine.newBuilder()
                        .maximumWeight(CACHED_CHARS_PER_POLICY)
                        .<String, GuardVerdict>weigher((k, v) -> k.length()
                                + (v instanceof GuardVerdict.Accepted a ? a.statement().sql().length() : 0))
                        .expireAfterAccess(java.time.Duration.ofMinutes(10)).build());
        // keyed by what the engines read, not by spelling: select and SELECT are one statement (SameStatement)
        String key = dialect.ordinal() + ":" + dev.sqlagent.internal.SameStatement.key(sql);
        GuardVerdict known = byPolicy.getIfPresent(key);
        GuardVerdict given = known == null ? null : dev.sqlagent.internal.SameStatement.givenAs(known, sql);
        if (given != null) {
            return given;
        }
        GuardVerdict v = checkOnce(sql, policy, dialect);
        if (!(v instanceof GuardVerdict.Rejected r) || r.violations().stream().noneMatch(SqlGuard::circumstantial)) {
            byPolicy.put(key, v);
        }
        return v;
    }

    /**
     * The lexing the parse goes on with after a spelling: the spelling's refusal, its respelled SQL lexed
     * again (which may itself be refused), or the same lexing when nothing was respelled.
     */
    private static SqlLexer.Result afterSpelling(Respelling spelling, SqlLexer.Result lexed, Dialect dialect,
                                                 GuardPolicy policy) {
        if (spelling.violation() != null) {
            return new SqlLexer.Result(spelling.sql(), List.of(), spelling.violation(), lexed.maxDepth());
        }
        return spelling.respelled() ? SqlLexer.lex(spelling.sql(), dialect, policy.maxNestingDepth()) : lexed;
    }

    /**
     * The violations without echoes of another: a name refused as a function ({@code current_user}, a
     * probe) or a table is not also reported as an unknown column of the same name, and one violation found
     * twice (a star seen from the CTE and from the query over it) is listed once.
     */
    static List<Violation> withoutEchoes(List<Violation> violations) {
        violations = List.copyOf(new LinkedHashSet<>(violations));
        Set<String> named = new java.util.HashSet<>();
        for (Violation v : violations) {
            if (!v.type().inventedName()) {
                named.add(Names.lower(v.fragment()));
            }
        }
        List<Violation> out = new ArrayList<>();
        for (Violation v : violations) {
            if (!(v.type() == ViolationType.UNKNOWN_COLUMN && named.contains(Names.lower(v.fragment())))) {
                out.add(v);
            }
        }
        return out.isEmpty() ? violations : out;
    }

    /** A violation that depends on the machine (its load, the thread's stack), not only on the SQL. */
    private static boolean circumstantial(Violation v) {
        return v.type() == ViolationType.PARSE_TIMEOUT || v.type() == ViolationType.NESTING_TOO_DEEP;
    }

    private GuardVerdict checkOnce(String sql, GuardPolicy policy, Dialect dialect) {
        if (sql.isBlank()) {
            return reject(sql, ViolationType.INPUT_TOO_LONG, "", "SQL is empty");
        }
        if (sql.length() > policy.maxSqlLength()) {
            return reject(sql, ViolationType.INPUT_TOO_LONG, sql.substring(0, 40),
                    "SQL is longer than " + policy.maxSqlLength() + " characters");
        }
        SqlLexer.Result lexed = SqlLexer.lex(sql, dialect, policy.maxNestingDepth());
        if (lexed.violation() != null) {
            return new GuardVerdict.Rejected(sql, List.of(lexed.violation()));
        }
        // one query, read from the tokens: COPY, ATTACH, INSTALL, … are refused, never syntax errors
        List<Violation> shape = StatementShape.check(lexed.sql(), lexed.tokens());
        if (!shape.isEmpty()) {
            return new GuardVerdict.Rejected(sql, shape);
        }
        if (Engines.of(dialect).guard().pipesAreOr()) {
            String or = pipesAsOr(lexed);
            if (or != null) {
                lexed = SqlLexer.lex(or, dialect, policy.maxNestingDepth());
                if (lexed.violation() != null) {
                    return new GuardVerdict.Rejected(sql, List.of(lexed.violation()));
                }
            }
        }
        // each engine's syntax the parser does not read, respelled for it
        Respelled respelled = Engines.of(dialect).guard().respell(lexed,
                (spelling, before) -> afterSpelling(spelling, before, dialect, policy));
        lexed = respelled.lexed();
        if (lexed.violation() != null) {
            return new GuardVerdict.Rejected(sql, List.of(lexed.violation()));
        }
        try {
            return checkParsed(sql, lexed, respelled, policy, dialect);
        } catch (StackOverflowError e) {
            return reject(sql, ViolationType.NESTING_TOO_DEEP, SqlLexer.fragment(sql, 0),
                    "expression nested too deeply to analyse");
        }
    }

    private GuardVerdict checkParsed(String sql, SqlLexer.Result lexed, Respelled respelled, GuardPolicy policy,
                                     Dialect dialect) {
        ParseRunner.Parsed parsed;
        SqlLexer.Result read = lexed;
        try {
            try {
                parsed = parser.parse(read.sql(), dialect, policy.parseTimeout());
            } catch (ParseRunner.Failed e) {
                // names the parser takes for keywords (number, uuid): quoted, they are the same names
                String quoted = KeywordNames.quote(read.sql(), read.tokens(), dialect);
                if (quoted == null) {
                    throw e;
                }
                SqlLexer.Result again = SqlLexer.lex(quoted, dialect, policy.maxNestingDepth());
                if (again.violation() != null) {
                    throw e;
                }
                try {
                    parsed = parser.parse(again.sql(), dialect, policy.parseTimeout());
                } catch (ParseRunner.Failed still) {
                    throw e;
                }
                read = again;
            }
        } catch (ParseRunner.TimedOut e) {
            return reject(sql, ViolationType.PARSE_TIMEOUT, SqlLexer.fragment(sql, 0),
                    "parsing took longer than " + policy.parseTimeout().toMillis() + " ms");
        } catch (ParseRunner.Failed e) {
            return new GuardVerdict.Unparseable(sql, AstAnalyzer.shorten(e.getMessage()));
        }
        Violation differs = SqlLexer.align(read.sql(), read.tokens(), parsed.first());
        if (differs != null) {
            return new GuardVerdict.Rejected(sql, List.of(differs));
        }
        Statements statements = parsed.statements();
        List<Statement> list = new ArrayList<>();
        for (Statement s : statements) {
            if (s != null) {
                list.add(s);
            }
        }
        if (list.size() != 1) {
            return reject(sql, ViolationType.MULTIPLE_STATEMENTS, String.valueOf(list.size()),
                    "exactly one statement is allowed but found " + list.size());
        }
        Statement statement = list.get(0);
        if (!(statement instanceof PlainSelect || statement instanceof SetOperationList
                || statement instanceof ParenthesedSelect) || statement instanceof LateralSubSelect) {
            return reject(sql, ViolationType.NOT_A_QUERY, statement.getClass().getSimpleName() + ": "
                    + AstAnalyzer.shorten(String.valueOf(statement)), "only queries are allowed");
        }
        Select select = (Select) statement;
        AstAnalyzer analysis = new AstAnalyzer(policy, dialect);
        analysis.analyse(select, respelled);
        List<Violation> violations = new ArrayList<>(analysis.violations);
        Set<String> tables = new LinkedHashSet<>();
        for (AstAnalyzer.TableRef ref : analysis.tableRefs) {
            tables.add(ref.key());
        }
        checkStars(analysis, policy, violations);
        if (analysis.open) {
            checkColumnsAndStars(analysis, policy, tables, violations);
        } else if (analysis.naturalJoin) {
            checkNaturalJoin(analysis, policy, violations);
        }
        for (AstAnalyzer.TableRef ref : analysis.tableRefs) {
            Violation hint = IndexPaths.check(ref.table(), ref.key(), policy);
            if (hint != null) {
                violations.add(hint);
            }
            Violation stored = IndexPaths.storedInDeniedOrder(ref.table(), ref.key(), policy, dialect);
            if (stored != null) {
                violations.add(stored);
            }
        }
        if (!violations.isEmpty()) {
            return new GuardVerdict.Rejected(sql, withoutEchoes(violations));
        }
        List<Object> values = new ArrayList<>();
        Set<String> columns = analysis.open ? readColumns(analysis, policy, tables) : resolvedColumns(analysis, policy);
        for (AstAnalyzer.TableRef ref : analysis.tableRefs) {
            // no read through an index ordered by forbidden data (a row filter's derived table keeps it)
            IndexPaths.apply(ref.table(), ref.key(), policy, dialect);
            for (RowFilter filter : policy.rowFilters()) {
                if (filter.table().equals(ref.key())) {
                    if (!applyRowFilter(ref, filter, values.size(), dialect, needed(analysis, ref, policy, filter))) {
                        return reject(sql, ViolationType.ROW_FILTER, ref.table().toString(),
                                "the row filter on " + ref.key() + " cannot be applied here");
                    }
                    values.add(filter.value());
                    columns.add(ref.key() + "." + filter.column());
                }
            }
        }
        Select limited = RowLimiter.apply(select, dialect, policy.maxRows());
        analysis.sampled.forEach(PlainSelect::setIntoTempTable);
        analysis.optioned.forEach(PlainSelect::setSkip);
        String printed = limited.toString();
        printed = respelled.forEngine(printed);
        if (printed == null) {
            return reject(sql, ViolationType.UNSUPPORTED_CONSTRUCT, "", respelled.unprintable());
        }
        // the printed SQL is what runs: it must read, token for token, as the engine reads it
        SqlLexer.Result reread = SqlLexer.lex(printed, dialect, Integer.MAX_VALUE);
        if (reread.violation() != null) {
            return new GuardVerdict.Rejected(sql, List.of(new Violation(reread.violation().type(),
                    reread.violation().fragment(), "the SQL to run would read differently: "
                    + reread.violation().message())));
        }
        List<Object> parameters = List.of();
        if (!values.isEmpty()) {
            List<Integer> order = new ArrayList<>();
            printed = SqlLexer.positionalise(printed, reread, PLACEHOLDER, order); // lexed just above
            List<Object> bound = new ArrayList<>();
            for (int index : order) {
                bound.add(values.get(index));
            }
            if (order.size() != values.size()) {
                return reject(sql, ViolationType.ROW_FILTER, "", "row filter placeholders were lost in printing");
            }
            parameters = bound;
        }
        // PostgreSQL has no index hints: a statement over a table with an index ordered by forbidden data runs
        // with ordered index scans off (IndexPaths)
        boolean physicalOrder = Engines.of(dialect).guard().orderedScansOff() && analysis.tableRefs.stream()
                .anyMatch(ref -> !policy.orderingIndexes(ref.key()).isEmpty());
        return new GuardVerdict.Accepted(sql, new SqlStatement(printed, parameters, physicalOrder), tables, columns);
    }

    /**
     * {@code SELECT *} is refused unless the policy allows it, but for a star over derived tables, CTEs and
     * VALUES lists only, whose columns the statement names itself.
     */
    private static void checkStars(AstAnalyzer analysis, GuardPolicy policy, List<Violation> violations) {
        if (!policy.allowSelectStar()) {
            for (AllColumns star : analysis.stars) {
                if (analysis.namedStars.contains(star)) {
                    continue;
                }
                violations.add(new Violation(ViolationType.SELECT_STAR, star.toString(),
                        "SELECT * is not allowed; name the columns"));
            }
        }
    }

    /** A NATURAL join joins on every column two tables share: refused next to a table with denied columns. */
    private static void checkNaturalJoin(AstAnalyzer analysis, GuardPolicy policy, List<Violation> violations) {
        for (AstAnalyzer.TableRef ref : analysis.tableRefs) {
            if (policy.deniedColumns().containsKey(ref.key())) {
                violations.add(new Violation(ViolationType.COLUMN_DENIED, "NATURAL JOIN",
                        "NATURAL JOIN next to a table with denied columns"));
                return;
            }
        }
    }

    /**
     * Denied columns by name, for a statement reading a table whose columns the policy does not know (so
     * that its names cannot be resolved): a column named like a denied column of a table the query reads is
     * refused unless its qualifier names something else; a bare column named like such a table or its
     * alias (a whole-row reference) is refused; a star that may expand over such a table is refused, as
     * is a NATURAL join next to one.
     */
    private static void checkColumnsAndStars(AstAnalyzer analysis, GuardPolicy policy, Set<String> tables,
                                             List<Violation> violations) {
        Map<String, Set<String>> denied = policy.deniedColumns();
        Set<String> deniedTables = new LinkedHashSet<>();
        for (String t : tables) {
            if (denied.containsKey(t)) {
                deniedTables.add(t);
            }
        }
        if (deniedTables.isEmpty()) {
            return;
        }
        for (Column column : analysis.columns) {
            String nameCi = Names.lower(Names.unquote(column.getColumnName()));
            Table q = column.getTable();
            String qualifier = q == null || q.getName() == null ? null
                    : Names.lower(Names.unquote(q.getName()));
            for (String t : deniedTables) {
                Set<String> names = namesOf(t, analysis);
                boolean mayBeT = qualifier == null || names.contains(qualifier);
                if (mayBeT && denied.get(t).contains(nameCi)) {
                    violations.add(new Violation(ViolationType.COLUMN_DENIED, column.toString(),
                            "column is denied: " + t + "." + nameCi));
                } else if (mayBeT && PSEUDO_COLUMNS.contains(nameCi)) {
                    violations.add(new Violation(ViolationType.COLUMN_DENIED, column.toString(),
                            nameCi + " is an alias of the integer primary key of " + t
                                    + ", which has denied columns"));
                } else if (qualifier == null && names.contains(nameCi)) {
                    violations.add(new Violation(ViolationType.COLUMN_DENIED, column.toString(),
                            "whole-row reference to " + t + ", which has denied columns"));
                }
            }
        }
        for (AllColumns star : analysis.stars) {
            String qualifier = star instanceof AllTableColumns && ((AllTableColumns) star).getTable() != null
                    ? Names.lower(Names.unquote(((AllTableColumns) star).getTable().getName()))
                    : null;
            for (String t : deniedTables) {
                if (qualifier == null || namesOf(t, analysis).contains(qualifier)) {
                    violations.add(new Violation(ViolationType.COLUMN_DENIED, star.toString(),
                            "* would read the denied columns of " + t));
                }
            }
        }
        if (analysis.naturalJoin) {
            violations.add(new Violation(ViolationType.COLUMN_DENIED, "NATURAL JOIN",
                    "NATURAL JOIN next to a table with denied columns"));
        }
    }

    /** Every name (the table's own, any alias given to it) that may stand for table {@code key}. */
    private static Set<String> namesOf(String key, AstAnalyzer analysis) {
        Set<String> names = new LinkedHashSet<>();
        names.add(key);
        names.add(key.substring(key.lastIndexOf('.') + 1));
        for (Map.Entry<String, Set<String>> e : analysis.qualifiers.entrySet()) {
            if (e.getValue().contains(key)) {
                names.add(Names.lower(e.getKey().replace(Names.UNMATCHABLE, "")));
            }
        }
        return names;
    }

    /** Best effort: qualified columns through their alias, bare ones when the query reads one table. */
    private static Set<String> readColumns(AstAnalyzer analysis, GuardPolicy policy, Set<String> tables) {
        Set<String> out = new LinkedHashSet<>();
        for (Column column : analysis.columns) {
            String name = Names.lower(Names.unquote(column.getColumnName()));
            Table q = column.getTable();
            if (q == null || q.getName() == null) {
                if (tables.size() == 1) {
                    out.add(tables.iterator().next() + "." + name);
                }
                continue;
            }
            Set<String> keys = analysis.qualifiers.get(Names.lower(Names.unquote(q.getName())));
            if (keys != null && keys.size() == 1 && tables.contains(keys.iterator().next())) {
                out.add(keys.iterator().next() + "." + name);
            }
        }
        return out;
    }

    /** What each real table is read for, from the resolved names: {@code table.column}, a star's every column. */
    private static Set<String> resolvedColumns(AstAnalyzer analysis, GuardPolicy policy) {
        Set<String> out = new LinkedHashSet<>();
        for (NameScope.Source s : analysis.sources) {
            if (s.key == null) {
                continue;
            }
            for (String c : s.all || analysis.naturalJoin ? s.columns : s.read.keySet()) {
                out.add(s.key + "." + c);
            }
        }
        return out;
    }

    /**
     * The columns of a filtered table the statement reads through one reference, so that the row filter's
     * derived table names only those (a login granted only the allowed columns can run it); null for every
     * column ({@code *}) when the policy does not know the table's columns or the statement reads them all.
     * Each column is spelled as the statement spells it, so that the engine resolves it alike inside.
     */
    private static List<String> needed(AstAnalyzer analysis, AstAnalyzer.TableRef ref, GuardPolicy policy,
                                       RowFilter filter) {
        if (analysis.open) {
            return null;
        }
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (NameScope.Source s : analysis.sources) {
            if (s.node != ref.table()) {
                continue;
            }
            if (s.all || analysis.naturalJoin) {
                // only on a table without denied columns (a star over one is refused): every column is granted
                return null;
            }
            out.putAll(s.read);
        }
        if (out.isEmpty()) {
            out.put(filter.column(), filter.column());
        }
        return new ArrayList<>(out.values());
    }

    /**
     * Replaces the table by {@code (SELECT c1, c2 FROM table WHERE table.column = :p) AS alias}, naming the
     * columns the statement reads (or {@code *} when they are not known).
     */
    private static boolean applyRowFilter(AstAnalyzer.TableRef ref, RowFilter filter, int index, Dialect dialect,
                                          List<String> needed) {
        Table original = ref.table();
        Table inner = sameName(original);
        inner.setHint(original.getIndexHint());
        PlainSelect body = new PlainSelect();
        if (needed == null) {
            body.addSelectItems(List.of(new SelectItem<>(new AllColumns())));
        } else {
            for (String c : needed) {
                body.addSelectItems(List.of(new SelectItem<>(new Column(sameName(original), c))));
            }
        }
        body.setFromItem(inner);
        body.setWhere(new EqualsTo(new Column(sameName(original), filter.column()),
                new JdbcNamedParameter(PLACEHOLDER + index)));
        if (Engines.of(dialect).guard().mergesDerivedTables()) {
            // MariaDB and MySQL merge a plain derived table into the query around it and put that query's
            // conditions BEFORE the filter's (`WHERE exp(CASE WHEN owner = 'bob' THEN 1000 END) > 0 AND owner = ?`):
            // a condition that errors on a filtered-out row tells the attacker the row exists and what it holds.
            // A LIMIT keeps the derived table materialised, filtered first, and stops condition pushdown into it.
            Limit fence = new Limit();
            fence.setRowCount(new LongValue(Long.MAX_VALUE));
            body.setLimit(fence);
        }
        ParenthesedSelect derived = new ParenthesedSelect();
        derived.setSelect(body);
        String aliasName = original.getAlias() != null ? original.getAlias().getName() : original.getName();
        derived.setAlias(new Alias(aliasName, Engines.of(dialect).guard().aliasWithAs()));
        Object parent = ref.parent();
        if (parent instanceof PlainSelect && ((PlainSelect) parent).getFromItem() == original) {
            ((PlainSelect) parent).setFromItem(derived);
            return true;
        }
        if (parent instanceof Join && ((Join) parent).getFromItem() == original) {
            ((Join) parent).setFromItem(derived);
            return true;
        }
        if (parent instanceof ParenthesedFromItem && ((ParenthesedFromItem) parent).getFromItem() == original) {
            ((ParenthesedFromItem) parent).setFromItem((FromItem) derived);
            return true;
        }
        return false;
    }

    /**
     * A table of the same (perhaps qualified) name, without alias: {@code getNameParts()} lists the parts
     * last first, the constructor first first ({@code new Table(t.getNameParts())} turns {@code shop.emp} into
     * {@code emp.shop}).
     */
    private static Table sameName(Table original) {
        List<String> parts = new ArrayList<>(original.getNameParts());
        java.util.Collections.reverse(parts);
        return new Table(parts);
    }

    /**
     * MySQL and MariaDB read {@code ||} as OR (unless {@code PIPES_AS_CONCAT} is set), where the parser reads
     * concatenation: the statement is spelled with {@code OR}, which every {@code sql_mode} reads alike.
     *
     * @return the SQL with each {@code ||} outside literals spelled {@code OR}, or null when it has none
     */
    private static String pipesAsOr(SqlLexer.Result lexed) {
        String sql = lexed.sql();
        List<SqlLexer.Tok> toks = lexed.tokens();
        StringBuilder out = null;
        int copied = 0;
        for (int t = 0; t + 1 < toks.size(); t++) {
            SqlLexer.Tok a = toks.get(t);
            SqlLexer.Tok b = toks.get(t + 1);
            if (a.kind() == SqlLexer.Kind.PUNCT && b.kind() == SqlLexer.Kind.PUNCT && sql.charAt(a.start()) == '|'
                    && sql.charAt(b.start()) == '|' && a.end() == b.start()) {
                if (out == null) {
                    out = new StringBuilder(sql.length() + 8);
                }
                out.append(sql, copied, a.start()).append(" OR ");
                copied = b.end();
                t++;
            }
        }
        return out == null ? null : out.append(sql, copied, sql.length()).toString();
    }

    private static GuardVerdict reject(String sql, ViolationType type, String fragment, String message) {
        return new GuardVerdict.Rejected(sql, List.of(new Violation(type, fragment, message)));
    }
}
