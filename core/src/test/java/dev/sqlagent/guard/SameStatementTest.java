package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.internal.SameStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Two texts under one {@link SameStatement#key} are one statement: the guard gives both the same verdict
 * (the same statement to run, the same tables, columns and violations), so that it may read only one.
 */
class SameStatementTest {

    @Test
    void reservedKeywordsOfThePlainPartAreOneSpelling() {
        assertThat(SameStatement.key("select name from people where dept in (1, 2) order by name"))
                .isEqualTo("SELECT name FROM people WHERE dept IN (1, 2) ORDER BY name");
        assertThat(SameStatement.key("select p.name from people p left join orders o on o.pid = p.id group by p.name"))
                .isEqualTo("SELECT p.name FROM people p LEFT JOIN orders o ON o.pid = p.id GROUP BY p.name");
        String upper = "SELECT count(*) FROM t";
        assertThat(SameStatement.key(upper)).isSameAs(upper);
    }

    @Test
    void aRunOfWhiteSpaceIsOneSpaceButNeverTakenAwayOrAdded() {
        assertThat(SameStatement.key("SELECT a,\n\t b\r\nFROM  t")).isEqualTo("SELECT a, b FROM t");
        assertThat(SameStatement.key("SELECT a,b FROM t")).isEqualTo("SELECT a,b FROM t");
        assertThat(SameStatement.key("SELECT a < = b FROM t")).isNotEqualTo(SameStatement.key("SELECT a <= b FROM t"));
        // past the plain part nothing changes: a line comment ends at its own line break
        assertThat(SameStatement.key("SELECT a  FROM t\n-- x\n  WHERE b = 1"))
                .isEqualTo("SELECT a FROM t -- x\n  WHERE b = 1");
        assertThat(SameStatement.key("SELECT a FROM t WHERE b = 'x  y'")).isEqualTo("SELECT a FROM t WHERE b = 'x  y'");
    }

    @Test
    void nothingThatCouldBeANameOrPartOfALiteralChanges() {
        // after the first quote, comment, parameter or escape the text is kept as it is
        assertThat(SameStatement.key("SELECT a FROM t WHERE b = 'x' and c = 1"))
                .isEqualTo("SELECT a FROM t WHERE b = 'x' and c = 1");
        assertThat(SameStatement.key("SELECT a -- from\nfrom t")).isEqualTo("SELECT a -- from\nfrom t");
        assertThat(SameStatement.key("SELECT a - 1 FROM t WHERE b > -2 and c = 1--x and d = 2"))
                .isEqualTo("SELECT a - 1 FROM t WHERE b > -2 AND c = 1--x and d = 2");
        assertThat(SameStatement.key("SELECT a FROM t WHERE b = 1-")).isEqualTo("SELECT a FROM t WHERE b = 1-");
        assertThat(SameStatement.key("SELECT a FROM t WHERE b = ? and c = 1")).isEqualTo("SELECT a FROM t WHERE b = ? and c = 1");
        assertThat(SameStatement.key("SELECT \"select\" from t")).isEqualTo("SELECT \"select\" from t");
        // qualified names (MySQL takes a reserved word after a dot for a name), functions, words H2 or
        // MySQL take for names
        assertThat(SameStatement.key("SELECT t.from FROM t")).isEqualTo("SELECT t.from FROM t");
        assertThat(SameStatement.key("SELECT select.a FROM t")).isEqualTo("SELECT select.a FROM t");
        assertThat(SameStatement.key("SELECT left(a, 1) FROM t")).isEqualTo("SELECT left(a, 1) FROM t");
        assertThat(SameStatement.key("SELECT a desc, b by, c end FROM t by"))
                .isEqualTo("SELECT a desc, b by, c end FROM t by");
        assertThat(SameStatement.key("SELECT CASE WHEN a THEN 1 else 2 END FROM t"))
                .isEqualTo("SELECT CASE WHEN a THEN 1 ELSE 2 END FROM t");
        // a word that runs into what is not looked at, and numbers
        assertThat(SameStatement.key("SELECT 1 from t WHERE n'x' = a")).isEqualTo("SELECT 1 FROM t WHERE n'x' = a");
        assertThat(SameStatement.key("SELECT 1 FROM t where_x")).isEqualTo("SELECT 1 FROM t where_x");
        assertThat(SameStatement.key("SELECT 1in FROM t")).isEqualTo("SELECT 1in FROM t");
        assertThat(SameStatement.key("sélect from")).isEqualTo("sélect from");
    }

    /** Words a model writes in either case, wherever they are (strings included): the generator's variants. */
    private static final Pattern WORDS = Pattern.compile("(?i)\\b(select|from|where|group|order|by|having|and|or|not"
            + "|in|as|on|join|inner|left|right|outer|cross|union|all|distinct|case|when|then|else|end|is|null|like"
            + "|between|exists|limit|asc|desc|with|count|avg|sum|max|min)\\b");

    /** The text with every match of {@code words} in lower case. */
    private static String lowered(Pattern words, String sql) {
        Matcher m = words.matcher(sql);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, m.group().toLowerCase(Locale.ROOT));
        }
        return m.appendTail(out).toString();
    }

    @Test
    void overSpiderTextsWithOneKeyGetOneVerdictOnEveryDialect() throws Exception {
        Map<String, GuardPolicy> policies = SpiderData.closedWorldPolicies();
        List<SpiderData.Query> queries = new ArrayList<>(SpiderData.gold());
        for (String file : List.of("codex-din-sql.jsonl", "codex-few-shot.jsonl", "gpt4-few-shot.jsonl")) {
            queries.addAll(SpiderData.predictions(file));
        }
        int pairs = 0;
        int sameKey = 0;
        List<String> differ = new ArrayList<>();
        for (Dialect d : List.of(Dialect.SQLITE, Dialect.H2, Dialect.POSTGRESQL, Dialect.MARIADB)) {
            for (SpiderData.Query q : queries) {
                if (q.sql() == null || q.sql().isBlank()) {
                    continue;
                }
                String other = lowered(WORDS, q.sql());
                if (pairs % 2 == 1) {
                    other = other.replace(" ", "\n  ");
                }
                if (other.equals(q.sql())) {
                    continue;
                }
                pairs++;
                if (!SameStatement.key(other).equals(SameStatement.key(q.sql()))) {
                    continue;
                }
                sameKey++;
                // fresh guards: no verdict comes from the cache the key feeds
                GuardVerdict a = SqlGuard.create().check(q.sql(), policies.get(q.db()), d);
                GuardVerdict b = SqlGuard.create().check(other, policies.get(q.db()), d);
                String why = sameReading(a, b);
                if (why != null) {
                    differ.add(d + " " + q.id() + ": " + why + "\n  " + q.sql() + "\n  " + other);
                }
            }
        }
        System.out.printf("SAME-STATEMENT %d of %d lower-case variants share their original's key%n", sameKey, pairs);
        assertThat(differ).as("texts with one key, read differently").isEmpty();
        // the key must do its work: most of the corpus's lower-case variants share their original's
        assertThat(sameKey).as("of %d variants", pairs).isGreaterThan(pairs / 3);
    }

    /** Null when both verdicts read the same; else what differs. */
    private static String sameReading(GuardVerdict a, GuardVerdict b) {
        if (a.getClass() != b.getClass()) {
            return a + " / " + b;
        }
        if (a instanceof GuardVerdict.Accepted x && b instanceof GuardVerdict.Accepted y) {
            return x.statement().equals(y.statement()) && x.tables().equals(y.tables())
                    && x.columns().equals(y.columns()) ? null : x + " / " + y;
        }
        if (a instanceof GuardVerdict.Rejected x && b instanceof GuardVerdict.Rejected y) {
            // a fragment is the text's own spelling of the part refused
            return spelled(x.violations()).equals(spelled(y.violations())) ? null
                    : x.violations() + " / " + y.violations();
        }
        return null;
    }

    private static List<String> spelled(List<Violation> violations) {
        List<String> out = new ArrayList<>();
        for (Violation v : violations) {
            out.add(v.type() + " " + v.fragment().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT));
        }
        return out;
    }

    /** Each keyword of the key in the places the engines' own spellings look at (IS, LIKE, BETWEEN, IN, …). */
    private static final List<String> KEYWORD_PLACES = List.of(
            "SELECT a FROM t WHERE a IS b",
            "SELECT a FROM t WHERE a IS NOT NULL AND b IS NULL",
            "SELECT a IS NULL AS x, b IS NOT b AS y FROM t",
            "SELECT a FROM t WHERE a LIKE b OR a NOT LIKE c",
            "SELECT a FROM t WHERE a BETWEEN 1 AND 2 AND b NOT BETWEEN 3 AND 4",
            "SELECT a FROM t WHERE a IN (1, 2) AND b NOT IN (SELECT c FROM u)",
            "SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.c = t.a) AND NOT EXISTS (SELECT 1 FROM u)",
            "SELECT DISTINCT a FROM t LEFT JOIN u ON u.c = t.a CROSS JOIN u AS v INNER JOIN u w ON w.c = v.c",
            "SELECT CASE WHEN a = 1 THEN 2 WHEN a IS NULL THEN 3 ELSE 4 END AS x FROM t",
            "SELECT a FROM t UNION SELECT c FROM u ORDER BY 1 LIMIT 3",
            "WITH x AS (SELECT a FROM t GROUP BY a HAVING COUNT(*) > 1) SELECT a FROM x",
            "SELECT a FROM t RIGHT JOIN u ON u.c = t.a WHERE a IS NOT DISTINCT FROM b",
            "SELECT left(a, 1) AS l, right(a, 1) AS r FROM t",
            "SELECT a FROM t WHERE a GLOB b OR a REGEXP b",
            "SELECT a, COUNT(*) AS n FROM t GROUP BY a ORDER BY n DESC LIMIT 5");

    private static final Pattern KEY_WORDS = Pattern.compile("\\b(SELECT|FROM|WHERE|GROUP|ORDER|BY|HAVING|AND|OR|NOT"
            + "|IN|AS|ON|JOIN|INNER|LEFT|RIGHT|CROSS|UNION|DISTINCT|CASE|WHEN|ELSE|IS|NULL|LIKE|BETWEEN|EXISTS"
            + "|LIMIT|WITH)\\b(?!\\()");

    @Test
    void whereEachEngineSpellsAKeywordOfItsOwnTheTextsStillReadAlike() {
        GuardPolicy policy = GuardPolicy.builder().allowTables("t", "u").build();
        List<String> differ = new ArrayList<>();
        for (Dialect d : Dialect.values()) {
            for (String sql : KEYWORD_PLACES) {
                String other = lowered(KEY_WORDS, sql).replace(" ", "\n ");
                assertThat(SameStatement.key(other)).as(other).isEqualTo(SameStatement.key(sql));
                String why = sameReading(SqlGuard.create().check(sql, policy, d), SqlGuard.create().check(other, policy, d));
                if (why != null) {
                    differ.add(d + ": " + why);
                }
            }
        }
        assertThat(differ).isEmpty();
    }

    @Test
    void aSyntaxErrorIsReadInEachText() {
        SqlGuard guard = SqlGuard.create();
        GuardPolicy policy = GuardPolicy.builder().allowTables("orders").build();
        GuardVerdict one = guard.check("SELECT id FROM orders WHERE", policy, Dialect.H2);
        GuardVerdict other = guard.check("SELECT id\n  FROM orders WHERE", policy, Dialect.H2);
        assertThat(one).isInstanceOf(GuardVerdict.Unparseable.class);
        assertThat(other).isInstanceOf(GuardVerdict.Unparseable.class);
        assertThat(other.sql()).isEqualTo("SELECT id\n  FROM orders WHERE");
        assertThat(((GuardVerdict.Unparseable) other).message()).isNotEqualTo(((GuardVerdict.Unparseable) one).message());
    }

    @Test
    void theGuardReadsOneStatementOnceAndGivesEachTextItsOwnVerdict() {
        SqlGuard guard = SqlGuard.create();
        GuardPolicy policy = GuardPolicy.builder().allowTables("orders").build();
        GuardVerdict.Accepted upper = (GuardVerdict.Accepted) guard.check("SELECT id FROM orders", policy, Dialect.H2);
        GuardVerdict.Accepted lower = (GuardVerdict.Accepted) guard.check("select id from orders", policy, Dialect.H2);
        // the reading given again, not read again: the very statement the first check printed
        assertThat(lower.statement()).isSameAs(upper.statement());
        assertThat(lower.sql()).isEqualTo("select id from orders");
        assertThat(upper.sql()).isEqualTo("SELECT id FROM orders");
        assertThat(lower.tables()).isEqualTo(upper.tables());
    }
}
