package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Counts, over the gold SQL and the real model predictions of Spider dev, every function call and what
 * the standard policy decides for it on each engine: the figure behind "a function the engine lacks is a
 * mistake, not a violation". Run by hand; prints a table.
 */
public final class FunctionDecisionCensus {

    private FunctionDecisionCensus() {
    }

    /**
     * Prints the census.
     *
     * @param args none
     * @throws Exception on a read failure
     */
    public static void main(String[] args) throws Exception {
        Map<String, List<SpiderData.Query>> sets = new TreeMap<>();
        sets.put("gold", SpiderData.gold());
        for (String f : List.of("codex-din-sql.jsonl", "codex-few-shot.jsonl", "gpt4-few-shot.jsonl")) {
            sets.put(f, SpiderData.predictions(f));
        }
        for (Map.Entry<String, List<SpiderData.Query>> set : sets.entrySet()) {
            for (Dialect d : List.of(Dialect.SQLITE, Dialect.POSTGRESQL, Dialect.MARIADB, Dialect.H2)) {
                Map<String, Integer> verdicts = new TreeMap<>();
                Map<String, Integer> names = new TreeMap<>();
                int statements = 0;
                for (SpiderData.Query q : set.getValue()) {
                    List<Function> calls = new ArrayList<>();
                    try {
                        CCJSqlParserUtil.parse(q.sql()).accept(new FunctionCollector(calls), null);
                    } catch (Exception e) {
                        continue;
                    }
                    statements++;
                    for (Function f : calls) {
                        FunctionPolicy.Decision dec = FunctionPolicy.standard().decide(f.getMultipartName(), d);
                        verdicts.merge(dec.verdict().name(), 1, Integer::sum);
                        if (!dec.allowed()) {
                            names.merge(dec.verdict() + ":" + dec.name(), 1, Integer::sum);
                        }
                    }
                }
                System.out.println(set.getKey() + " " + d + " statements=" + statements + " calls=" + verdicts
                        + " not-allowed=" + names);
            }
        }
    }

    /** Collects the function calls of a statement. */
    private static final class FunctionCollector extends TablesNamesFinder<Void> {
        private final List<Function> calls;

        FunctionCollector(List<Function> calls) {
            this.calls = calls;
            init(true);
        }

        @Override
        public <S> Void visit(Function function, S context) {
            calls.add(function);
            return super.visit(function, context);
        }
    }
}
