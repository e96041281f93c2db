package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * The security guard: every candidate SQL passes it before it may run. It parses the SQL, checks it
 * against a {@link GuardPolicy} and returns a {@link GuardVerdict}. Pure and thread-safe.
 */
public final class SqlGuard {

    private static final SqlGuard INSTANCE = new SqlGuard();

    private SqlGuard() {
    }

    /** @return the guard */
    public static SqlGuard create() {
        return INSTANCE;
    }

    /**
     * Checks one SQL.
     *
     * @param sql the SQL, as cleaned from a model reply
     * @param policy what is allowed
     * @param dialect the database's dialect (row-limit form, quoting)
     * @return the verdict, never null
     */
    public GuardVerdict check(String sql, GuardPolicy policy, Dialect dialect) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(dialect, "dialect");
        if (sql.isBlank() || sql.length() > policy.maxSqlLength()) {
            return new GuardVerdict.Rejected(sql, List.of(new Violation(ViolationType.INPUT_TOO_LONG,
                    sql.isBlank() ? "" : sql.substring(0, 40), "SQL is empty or longer than " + policy.maxSqlLength())));
        }
        Statements statements;
        try {
            statements = CCJSqlParserUtil.parseStatements(sql);
        } catch (JSQLParserException e) {
            return new GuardVerdict.Unparseable(sql, shorten(String.valueOf(e.getMessage())));
        }
        if (statements.size() != 1) {
            return new GuardVerdict.Rejected(sql, List.of(new Violation(ViolationType.MULTIPLE_STATEMENTS,
                    String.valueOf(statements.size()), "exactly one statement is allowed")));
        }
        Statement st = statements.get(0);
        if (!(st instanceof Select)) {
            return new GuardVerdict.Rejected(sql, List.of(new Violation(ViolationType.NOT_A_QUERY,
                    st.getClass().getSimpleName(), "only queries are allowed")));
        }
        Set<String> tables = new LinkedHashSet<>();
        List<Violation> violations = new ArrayList<>();
        Set<String> found;
        try {
            found = TablesNamesFinder.findTables(sql);
        } catch (JSQLParserException e) {
            return new GuardVerdict.Unparseable(sql, shorten(String.valueOf(e.getMessage())));
        }
        for (String t : found) {
            String name = unquote(t);
            tables.add(name);
            if (!policy.allowsTable(name)) {
                violations.add(new Violation(ViolationType.TABLE_NOT_ALLOWED, name, "table is not allowed: " + name));
            }
        }
        if (!violations.isEmpty()) {
            return new GuardVerdict.Rejected(sql, violations);
        }
        return new GuardVerdict.Accepted(sql, SqlStatement.of(sql), tables, Set.of());
    }

    private static String unquote(String name) {
        StringBuilder sb = new StringBuilder();
        for (char c : name.toCharArray()) {
            if (c != '"' && c != '`' && c != '[' && c != ']') {
                sb.append(c);
            }
        }
        return sb.toString().toLowerCase(java.util.Locale.ROOT);
    }

    private static String shorten(String s) {
        String oneLine = s.replaceAll("\\s+", " ").trim();
        return oneLine.length() > 300 ? oneLine.substring(0, 300) + "…" : oneLine;
    }
}
