package dev.sqlagent.engine.sqlite;

import dev.sqlagent.internal.Identifiers;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.Function;

/**
 * SQLite's FTS5 auxiliary functions, as the guard reads them: {@code bm25(t, weight…)},
 * {@code highlight(t, column, open, close)} and {@code snippet(t, column, open, close, ellipsis, tokens)}. SQLite
 * runs FTS5's own code for them only when the first argument is a column of an FTS5 table, and that code reads
 * the row of the cursor the table's hidden column {@code t} stands for; the guard accepts them only there (the
 * table of the statement's FROM, named by its hidden column), as a read of that whole row. Their results are
 * that row's text with markers around the matches: the markers must be string constants of at most
 * {@link #MAX_MARKER} characters, so that what a call adds to the row is bounded.
 */
final class Fts5 {

    /** The auxiliary functions, lower case. */
    static final Set<String> AUXILIARY = Set.of("bm25", "highlight", "snippet");

    /** The longest marker string {@code highlight} and {@code snippet} may insert. */
    static final int MAX_MARKER = 64;

    private Fts5() {
    }

    /**
     * @param f a call
     * @return its name, lower case, when it is an auxiliary function called by its bare name; else null
     */
    static String auxiliary(Function f) {
        if (f.getMultipartName() == null || f.getMultipartName().size() != 1 || f.getName() == null) {
            return null;
        }
        String n = Identifiers.lower(unquote(f.getName()));
        return AUXILIARY.contains(n) ? n : null;
    }

    /**
     * @param name an auxiliary function
     * @return how many arguments it takes: exact for {@code highlight} (4) and {@code snippet} (6), at least one
     *     for {@code bm25} (returned negated: -1)
     */
    static int arity(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "highlight":
                return 4;
            case "snippet":
                return 6;
            default:
                return -1;
        }
    }

    /** @return the positions (from 0) of a function's marker arguments: the strings it inserts into the text */
    static Set<Integer> markers(String name) {
        switch (name) {
            case "highlight":
                return Set.of(2, 3);
            case "snippet":
                return Set.of(2, 3, 4);
            default:
                return Set.of();
        }
    }

    private static String unquote(String part) {
        if (part.length() < 2) {
            return part;
        }
        char f = part.charAt(0);
        char l = part.charAt(part.length() - 1);
        if (!(f == '"' && l == '"' || f == '`' && l == '`' || f == '[' && l == ']')) {
            return part;
        }
        String inner = part.substring(1, part.length() - 1);
        return f == '[' ? inner.replace("]]", "]") : inner.replace(String.valueOf(f) + f, String.valueOf(f));
    }
}
