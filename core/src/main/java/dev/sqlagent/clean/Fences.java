package dev.sqlagent.clean;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Finds markdown code blocks: {@code ```sql … ```}, {@code ``` … ```}, inline and unclosed ones. */
final class Fences {

    private static final Set<String> LANGUAGES = Set.of("sql", "sqlite", "sqlite3", "mysql", "mariadb", "postgres",
            "postgresql", "psql", "pgsql", "plsql", "plpgsql", "tsql", "t-sql", "mssql", "oracle", "hive", "hql",
            "sparksql", "spark", "bigquery", "snowflake", "duckdb", "h2", "ansi", "json", "jsonc", "text",
            "plaintext", "txt", "none", "code", "sh", "bash", "python", "markdown", "md");

    private Fences() {
    }

    /** A code block's content and the text around all blocks. */
    record Split(List<String> blocks, String outside) {
    }

    /**
     * Splits a reply into its fenced blocks (in order) and what lies outside them. A block's language tag
     * is dropped; an unclosed block runs to the end.
     *
     * @return empty blocks when the reply has no fence
     */
    static Split split(String s) {
        List<String> blocks = new ArrayList<>();
        StringBuilder outside = new StringBuilder();
        int n = s.length();
        int i = 0;
        while (i < n) {
            int open = s.indexOf("```", i);
            if (open < 0) {
                break;
            }
            outside.append(s, i, open).append('\n');
            int p = open;
            while (p < n && s.charAt(p) == '`') {
                p++;
            }
            int close = s.indexOf("```", p);
            int eol = p;
            int eolLimit = close < 0 ? n : close;
            while (eol < eolLimit && s.charAt(eol) != '\n') {
                eol++;
            }
            int contentStart;
            if (close >= 0 && eol == close) {
                contentStart = skipLanguageWord(s, p, close); // one line: ```sql SELECT 1```
            } else {
                String info = s.substring(p, eol).strip();
                if (isInfoWord(info)) {
                    contentStart = Math.min(eol + 1, n);
                } else {
                    contentStart = skipLanguageWord(s, p, eol);
                }
            }
            if (close < 0) {
                blocks.add(s.substring(contentStart));
                i = n;
                break;
            }
            blocks.add(s.substring(contentStart, close));
            i = close;
            while (i < n && s.charAt(i) == '`') {
                i++;
            }
        }
        if (blocks.isEmpty()) {
            return new Split(List.of(), s);
        }
        if (i < n) {
            outside.append(s, i, n);
        }
        return new Split(blocks, outside.toString());
    }

    /** An info string that is only a language tag (or any single short word such as {@code sql2}). */
    private static boolean isInfoWord(String info) {
        if (info.isEmpty()) {
            return true;
        }
        if (info.length() > 20) {
            return false;
        }
        for (int i = 0; i < info.length(); i++) {
            char c = info.charAt(i);
            if (!(Chars.isWordChar(c) || c == '-' || c == '+' || c == '.' || c == '#')) {
                return false;
            }
        }
        return !Chars.SQL_WORDS.contains(info.toUpperCase(Locale.ROOT)) || LANGUAGES.contains(info.toLowerCase(Locale.ROOT));
    }

    /** On a line such as {@code ```sql SELECT 1```}: skips a known language word and the space after it. */
    private static int skipLanguageWord(String s, int p, int limit) {
        int e = p;
        while (e < limit && (Chars.isWordChar(s.charAt(e)) || s.charAt(e) == '-')) {
            e++;
        }
        if (e > p && e < limit && Chars.isSpace(s.charAt(e))
                && LANGUAGES.contains(s.substring(p, e).toLowerCase(Locale.ROOT))) {
            return e + 1;
        }
        return p;
    }
}
