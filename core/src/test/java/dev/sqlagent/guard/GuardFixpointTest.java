package dev.sqlagent.guard;

import dev.sqlagent.engine.SqlLexer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.statement.Statements;
import org.junit.jupiter.api.Test;

/**
 * One reading: for every statement of every corpus the guard accepts, in every dialect, the SQL it would
 * run is a fixpoint. Parsed again it prints the same text (the tree that runs is the tree that was
 * checked), the engine-exact lexer reads it without refusal and token for token as the parser does, and
 * the guard accepts it again unchanged.
 */
class GuardFixpointTest {

    private static final List<Dialect> DIALECTS = List.of(Dialect.SQLITE, Dialect.POSTGRESQL, Dialect.MYSQL,
            Dialect.MARIADB, Dialect.H2, Dialect.SQLSERVER, Dialect.ORACLE, Dialect.GENERIC);

    private final SqlGuard guard = SqlGuard.create();

    @Test
    void everyAcceptedStatementOfEveryCorpusIsAFixpoint() throws Exception {
        Map<String, GuardPolicy> spider = new HashMap<>();
        SpiderData.tables().forEach((db, tables) ->
                spider.put(db, GuardPolicy.builder().allowTables(tables).allowSelectStar(true).build()));
        List<String[]> corpus = new ArrayList<>();
        for (SpiderData.Query q : SpiderData.gold()) {
            corpus.add(new String[] {q.db(), q.sql()});
        }
        for (String file : List.of("codex-few-shot.jsonl", "codex-din-sql.jsonl", "gpt4-few-shot.jsonl")) {
            for (SpiderData.Query q : SpiderData.predictions(file)) {
                corpus.add(new String[] {q.db(), q.sql()});
            }
        }
        List<String> payloads = SqliPayloadTest.payloads();
        for (SqliPayloadTest.Target t : SqliPayloadTest.TARGETS) {
            for (String template : SqliPayloadTest.TEMPLATES) {
                for (int i = 0; i < payloads.size(); i += 11) {
                    corpus.add(new String[] {t.db(), String.format(template, t.table(), t.column(), t.key(), payloads.get(i))});
                }
            }
        }
        List<String> broken = new ArrayList<>();
        int accepted = 0;
        for (Dialect d : DIALECTS) {
            for (String[] entry : corpus) {
                accepted += checkFixpoint(entry[1], spider.get(entry[0]), d, broken);
            }
            for (Dialect own : DialectCorpus.DIALECTS) {
                for (String sql : DialectCorpus.statements(own)) {
                    accepted += checkFixpoint(sql, DialectCorpus.policy(), d, broken);
                }
            }
        }
        broken.stream().limit(40).forEach(System.out::println);
        System.out.printf("FIXPOINT: %d accepted statements over %d dialects, %d not a fixpoint%n",
                accepted, DIALECTS.size(), broken.size());
        assertThat(accepted).isGreaterThan(5_000);
        assertThat(broken).isEmpty();
    }

    private int checkFixpoint(String sql, GuardPolicy policy, Dialect d, List<String> broken) {
        GuardVerdict v = guard.check(sql, policy, d);
        if (!(v instanceof GuardVerdict.Accepted)) {
            return 0;
        }
        String run = ((GuardVerdict.Accepted) v).statement().sql();
        String why = fixpointProblem(run, d);
        if (why == null) {
            GuardVerdict again = guard.check(run, policy, d);
            if (!(again instanceof GuardVerdict.Accepted)) {
                why = "not accepted again: " + again;
            } else if (!((GuardVerdict.Accepted) again).statement().sql().equals(run)) {
                why = "rewritten again: " + ((GuardVerdict.Accepted) again).statement().sql();
            }
        }
        if (why != null) {
            broken.add(d + ": " + sql + "\n    runs " + run + "\n    " + why);
        }
        return 1;
    }

    /** @return null when the SQL parses and prints back to itself and both lexers read it alike */
    static String fixpointProblem(String run, Dialect d) {
        SqlLexer.Result lexed = SqlLexer.lex(run, d, Integer.MAX_VALUE);
        if (lexed.violation() != null) {
            return "the lexer refuses it: " + lexed.violation();
        }
        for (boolean complex : new boolean[] {false, true}) {
            CCJSqlParser parser = ParseRunner.newParser(lexed.sql(), d, complex);
            Token first = parser.token;
            Statements st;
            try {
                st = parser.Statements();
            } catch (Exception | Error e) {
                continue;
            }
            Violation differs = SqlLexer.align(lexed.sql(), lexed.tokens(), first);
            if (differs != null) {
                return "the lexers disagree: " + differs;
            }
            String printed = st.size() == 1 ? st.get(0).toString() : st.toString();
            return printed.equals(run) ? null : "prints back as " + printed;
        }
        return "does not parse again";
    }
}
