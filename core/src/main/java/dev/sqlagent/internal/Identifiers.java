package dev.sqlagent.internal;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import java.util.List;

/**
 * How each engine tells two identifiers apart: the one place that holds the folding and comparison rules the
 * guard ({@code NameScope}, {@code Names}, {@code AstAnalyzer}) and the engine check's printed-query readers
 * ({@code H2Query}, {@code MariaDbQuery}, {@code PrintedQuery}) resolve names by. Two names are the same
 * name to the engine exactly when their {@link #key keys} under the engine's {@link Rule} are equal.
 *
 * <p>Keys are spelled so that a lower-case policy entry ({@code salary}) is the key of every name that
 * means the column or table the entry names when the database was created with bare names; a name the
 * engine keeps apart from it gets a key that starts with {@link #UNMATCHABLE} and so matches no entry.
 * Folding is ASCII-only, as the engines fold.
 *
 * <ul>
 *   <li>H2 (default settings): a bare name folds to upper case, a quoted one is exact ({@link Rule#UPPER});
 *       {@code DATABASE_TO_LOWER} makes it {@link Rule#LOWER}, {@code CASE_INSENSITIVE_IDENTIFIERS}
 *       {@link Rule#INSENSITIVE}. The guard cannot see the setting and refuses a binding the rules disagree
 *       on ({@link #alternatives}); the engine check reads the setting.</li>
 *   <li>PostgreSQL: bare folds to lower case, quoted exact ({@link Rule#LOWER}), no setting.</li>
 *   <li>SQLite and DuckDB: every name compares ignoring ASCII case, quoted or not ({@link Rule#INSENSITIVE}).</li>
 *   <li>MySQL and MariaDB: column names, column aliases and CTE names ignore case; table aliases (and table
 *       names) are exact unless {@code lower_case_table_names} is 1 or 2 ({@link #tableAliases}).</li>
 * </ul>
 *
 * <p>Internal: not part of the library's API.
 */
public final class Identifiers {

    /** Prefix of a key that can match no lower-case policy entry. */
    public static final String UNMATCHABLE = "\u0000";

    /** A comparison rule for identifiers. */
    public enum Rule {
        /** Bare names fold to upper case, quoted names are exact (H2, Oracle). */
        UPPER,
        /** Bare names fold to lower case, quoted names are exact (PostgreSQL, ANSI). */
        LOWER,
        /** Every name compares ignoring ASCII case, quoted or not (SQLite, DuckDB, MySQL columns). */
        INSENSITIVE,
        /** Every name is exact as written, quoted or not (MySQL table aliases, lower_case_table_names=0). */
        EXACT
    }

    private Identifiers() {
    }

    /**
     * @param rule the engine's rule
     * @param name the name, without quotes
     * @param quoted whether it was written quoted
     * @return the key: equal for two names exactly when the rule makes them the same name
     */
    public static String key(Rule rule, String name, boolean quoted) {
        switch (rule) {
            case INSENSITIVE:
                return lower(name);
            case EXACT:
                return name.equals(lower(name)) ? name : UNMATCHABLE + name;
            case UPPER:
                if (!quoted) {
                    return lower(name);
                }
                // bare names are stored upper case: only an all-upper quoted name is the bare one
                return name.equals(upper(name)) ? lower(name) : UNMATCHABLE + name;
            default:
                if (!quoted) {
                    return lower(name);
                }
                return name.equals(lower(name)) ? name : UNMATCHABLE + name;
        }
    }

    /**
     * @param dialect a dialect
     * @return its rule (with default settings) for column names, column aliases, CTE names and, except in
     *     MySQL and MariaDB, table aliases
     */
    public static Rule columns(Dialect dialect) {
        return Engines.of(dialect).guard().columnRule();
    }

    /**
     * @param dialect a dialect
     * @return its rule for table aliases and the table names that qualify columns (MySQL and MariaDB: exact,
     *     as {@code lower_case_table_names=0}, the default on Linux)
     */
    public static Rule tableAliases(Dialect dialect) {
        return Engines.of(dialect).guard().tableAliasRule();
    }

    /**
     * @param lowerCaseTableNames MariaDB's or MySQL's {@code lower_case_table_names}
     * @return the rule table aliases compare by under it
     */
    public static Rule mySqlTableAliases(int lowerCaseTableNames) {
        return lowerCaseTableNames == 0 ? Rule.EXACT : Rule.INSENSITIVE;
    }

    /**
     * The rules a database setting the guard cannot see may switch names of a kind to: a binding is the
     * engine's for sure only when it is the same under each of them.
     *
     * @param dialect a dialect
     * @param tableAlias whether the names are table aliases (else columns, column aliases, CTE names)
     * @return the other rules the engine may use
     */
    public static List<Rule> alternatives(Dialect dialect, boolean tableAlias) {
        return Engines.of(dialect).guard().alternativeRules(tableAlias);
    }

    /**
     * @param s a name
     * @return it with {@code A–Z} mapped to {@code a–z} and nothing else changed
     */
    public static String lower(String s) {
        int i = 0;
        int n = s.length();
        while (i < n && !(s.charAt(i) >= 'A' && s.charAt(i) <= 'Z')) {
            i++;
        }
        if (i == n) {
            return s;
        }
        char[] c = s.toCharArray();
        for (; i < n; i++) {
            if (c[i] >= 'A' && c[i] <= 'Z') {
                c[i] = (char) (c[i] + ('a' - 'A'));
            }
        }
        return new String(c);
    }

    /**
     * @param s a name
     * @return it with {@code a–z} mapped to {@code A–Z} and nothing else changed
     */
    public static String upper(String s) {
        char[] c = s.toCharArray();
        for (int i = 0; i < c.length; i++) {
            if (c[i] >= 'a' && c[i] <= 'z') {
                c[i] = (char) (c[i] - ('a' - 'A'));
            }
        }
        return new String(c);
    }
}
