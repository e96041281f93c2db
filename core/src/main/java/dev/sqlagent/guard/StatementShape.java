package dev.sqlagent.guard;

import dev.sqlagent.engine.SqlLexer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The shape of the input read from the lexer's tokens, before any parse: it must be one query. A statement
 * that does not begin as a query ({@code COPY (SELECT …) TO 'f'}, {@code ATTACH}, {@code INSTALL},
 * {@code PRAGMA}, {@code SET}, {@code EXPORT DATABASE}, any write or DDL) is {@link ViolationType#NOT_A_QUERY},
 * several statements are {@link ViolationType#MULTIPLE_STATEMENTS}, and a file or URL read as a table
 * (DuckDB's {@code FROM 'data/x.csv'}) is {@link ViolationType#TABLE_FUNCTION}: policy violations, whatever
 * the parser would make of them, never syntax errors to be corrected.
 */
final class StatementShape {

    /** The words a query may begin with, after opening parentheses. */
    private static final Set<String> QUERY_STARTS = Set.of("select", "with", "values", "table");
    /**
     * Words that begin a statement other than a query on some engine we govern: such a reply is a policy
     * violation. Any other first word (a typo such as {@code SELEC}, DuckDB's {@code FROM}-first query) is left
     * to the parser, which fails on it: a syntax error the model may correct, never run.
     */
    private static final Set<String> STATEMENT_WORDS = Set.of("abort", "alter", "analyse", "analyze", "attach",
            "backup", "begin", "call", "checkpoint", "close", "cluster", "comment", "commit", "copy", "create",
            "deallocate", "declare", "delete", "describe", "desc", "detach", "discard", "do", "drop", "end", "execute",
            "exec", "explain", "export", "fetch", "flush", "grant", "handler", "help", "import", "insert", "install",
            "kill", "listen", "load", "lock", "merge", "move", "notify", "optimize", "pivot", "prepare", "pragma",
            "purge", "reassign", "refresh", "reindex", "release", "rename", "repair", "replace", "reset", "restore",
            "revoke", "rollback", "runscript", "savepoint", "script", "security", "set", "show", "shutdown", "start",
            "summarize", "truncate", "uninstall", "unlisten", "unlock", "unpivot", "update", "upsert", "use",
            "vacuum", "xa", "get", "put", "remove", "force", "checksum", "cache", "uncache", "msck", "connect",
            "disconnect");

    /** The words after which the next item at the same depth is a table. */
    private static final Set<String> TABLE_CLAUSES = Set.of("from", "join");

    /** The words that end a FROM clause's list of tables at the same depth. */
    private static final Set<String> OTHER_CLAUSES = Set.of("select", "where", "group", "having", "order", "limit",
            "on", "using", "union", "intersect", "except", "window", "qualify", "offset", "fetch", "as", "with");

    private StatementShape() {
    }

    /**
     * @param sql the SQL as the lexer read it
     * @param tokens its tokens
     * @return every violation of shape, empty when it is one query
     */
    static List<Violation> check(String sql, List<SqlLexer.Tok> tokens) {
        List<Violation> out = new ArrayList<>();
        List<List<SqlLexer.Tok>> statements = new ArrayList<>();
        List<SqlLexer.Tok> current = new ArrayList<>();
        for (SqlLexer.Tok t : tokens) {
            if (t.kind() == SqlLexer.Kind.PUNCT && sql.charAt(t.start()) == ';') {
                if (!current.isEmpty()) {
                    statements.add(current);
                }
                current = new ArrayList<>();
            } else {
                current.add(t);
            }
        }
        if (!current.isEmpty()) {
            statements.add(current);
        }
        if (statements.size() > 1) {
            out.add(new Violation(ViolationType.MULTIPLE_STATEMENTS, String.valueOf(statements.size()),
                    "exactly one statement is allowed but found " + statements.size()));
        }
        for (List<SqlLexer.Tok> statement : statements) {
            SqlLexer.Tok first = null;
            for (SqlLexer.Tok t : statement) {
                if (!(t.kind() == SqlLexer.Kind.PUNCT && sql.charAt(t.start()) == '(')) {
                    first = t;
                    break;
                }
            }
            if (first == null) {
                continue; // only parentheses: the parser reports it
            }
            String word = first.text(sql).toLowerCase(Locale.ROOT);
            if (first.kind() == SqlLexer.Kind.WORD && !QUERY_STARTS.contains(word) && STATEMENT_WORDS.contains(word)) {
                out.add(new Violation(ViolationType.NOT_A_QUERY, SqlLexer.fragment(sql, first.start()),
                        "only a query is allowed, not " + Names.upper(first.text(sql)) + " (the statement is never"
                                + " cut down to a query inside it)"));
            }
            fileAsTable(sql, statement, out);
        }
        return out;
    }

    /** A string where a table stands: after FROM or JOIN, or after a comma of a FROM list. */
    private static void fileAsTable(String sql, List<SqlLexer.Tok> statement, List<Violation> out) {
        // per parenthesis depth: whether the clause in force there lists tables, and whether the parenthesis
        // is a call's, where FROM is an argument's keyword (EXTRACT(YEAR FROM …), TRIM(… FROM …))
        List<Boolean> inFrom = new ArrayList<>();
        List<Boolean> call = new ArrayList<>();
        inFrom.add(false);
        call.add(false);
        SqlLexer.Tok previous = null;
        for (SqlLexer.Tok t : statement) {
            int depth = inFrom.size() - 1;
            if (t.kind() == SqlLexer.Kind.PUNCT) {
                char c = sql.charAt(t.start());
                if (c == '(') {
                    inFrom.add(false);
                    call.add(previous != null && (previous.kind() == SqlLexer.Kind.IDENTIFIER
                            || previous.kind() == SqlLexer.Kind.WORD
                            && !TABLE_CLAUSES.contains(previous.text(sql).toLowerCase(Locale.ROOT))));
                } else if (c == ')' && depth > 0) {
                    inFrom.remove(depth);
                    call.remove(depth);
                }
            } else if (t.kind() == SqlLexer.Kind.WORD) {
                String w = t.text(sql).toLowerCase(Locale.ROOT);
                if (w.equals("select")) {
                    call.set(depth, false); // a subquery: (SELECT …), IN (SELECT …), EXISTS (SELECT …)
                }
                boolean distinctFrom = previous != null && previous.kind() == SqlLexer.Kind.WORD
                        && previous.text(sql).equalsIgnoreCase("distinct"); // IS [NOT] DISTINCT FROM
                if (TABLE_CLAUSES.contains(w) && !call.get(depth) && !distinctFrom) {
                    inFrom.set(depth, true);
                } else if (OTHER_CLAUSES.contains(w)) {
                    inFrom.set(depth, false);
                }
            } else if (t.kind() == SqlLexer.Kind.STRING && previous != null) {
                boolean afterTableWord = previous.kind() == SqlLexer.Kind.WORD && !call.get(depth)
                        && TABLE_CLAUSES.contains(previous.text(sql).toLowerCase(Locale.ROOT)) && inFrom.get(depth);
                boolean afterFromComma = previous.kind() == SqlLexer.Kind.PUNCT && sql.charAt(previous.start()) == ','
                        && inFrom.get(depth);
                boolean afterOpen = previous.kind() == SqlLexer.Kind.PUNCT && sql.charAt(previous.start()) == '('
                        && depth > 0 && inFrom.get(depth - 1) && opensTable(sql, statement, previous);
                if (afterTableWord || afterFromComma || afterOpen) {
                    out.add(new Violation(ViolationType.TABLE_FUNCTION, SqlLexer.fragment(sql, t.start()),
                            "a file or URL read as a table is not allowed"));
                }
            }
            previous = t;
        }
    }

    /** Whether the parenthesis {@code open} stands where a table does (right after FROM, JOIN or a comma). */
    private static boolean opensTable(String sql, List<SqlLexer.Tok> statement, SqlLexer.Tok open) {
        int at = statement.indexOf(open);
        if (at <= 0) {
            return false;
        }
        SqlLexer.Tok before = statement.get(at - 1);
        return before.kind() == SqlLexer.Kind.WORD && TABLE_CLAUSES.contains(before.text(sql).toLowerCase(Locale.ROOT))
                || before.kind() == SqlLexer.Kind.PUNCT && sql.charAt(before.start()) == ',';
    }
}
