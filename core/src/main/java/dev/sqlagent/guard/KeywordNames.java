package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Names that the parser takes for keywords but the databases read as ordinary names ({@code number},
 * {@code uuid}): models use them as column names, and the parser then fails on valid SQL. When a parse
 * fails, such a name (not called as a function, not a type after {@code ::}) is quoted the way the
 * dialect folds unquoted names, which names the same column, and the SQL is parsed again.
 */
final class KeywordNames {

    /** Keywords of the parser that no supported engine reserves. */
    static final Set<String> WORDS = Set.of("number", "uuid");

    private KeywordNames() {
    }

    /**
     * @param sql the SQL as lexed
     * @param tokens its tokens
     * @param dialect the dialect
     * @return the SQL with those names quoted, or null if there are none
     */
    static String quote(String sql, List<SqlLexer.Tok> tokens, Dialect dialect) {
        StringBuilder out = null;
        int copied = 0;
        for (int t = 0; t < tokens.size(); t++) {
            SqlLexer.Tok tok = tokens.get(t);
            if (tok.kind() != SqlLexer.Kind.WORD) {
                continue;
            }
            String word = tok.text(sql).toLowerCase(Locale.ROOT);
            if (!WORDS.contains(word)) {
                continue;
            }
            SqlLexer.Tok next = t + 1 < tokens.size() ? tokens.get(t + 1) : null;
            if (next != null && next.kind() == SqlLexer.Kind.PUNCT && sql.charAt(next.start()) == '(') {
                continue;
            }
            if (t >= 2 && sql.charAt(tokens.get(t - 1).start()) == ':' && sql.charAt(tokens.get(t - 2).start()) == ':') {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(sql.length() + 16);
            }
            out.append(sql, copied, tok.start()).append(quoted(word, dialect));
            copied = tok.end();
        }
        if (out == null) {
            return null;
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    private static String quoted(String word, Dialect dialect) {
        switch (dialect) {
            case MYSQL:
            case MARIADB:
                return "`" + word + "`";
            case SQLSERVER:
                return "[" + word + "]";
            case H2:
            case ORACLE:
                return "\"" + word.toUpperCase(Locale.ROOT) + "\"";
            default:
                return "\"" + word + "\"";
        }
    }
}
