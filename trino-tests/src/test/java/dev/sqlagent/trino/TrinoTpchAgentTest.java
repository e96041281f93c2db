package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testkit.ScriptedLlm;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The TPC-H question set through the whole governed path on the cluster: every question is answered, with the
 * rows its gold SQL returns run raw. On {@code tpch.tiny} by default; {@code -Dsqlagent.tpch.schema=sf1} (and
 * {@code -Dsqlagent.tpch.rounds=N}) runs it at scale and prints, per question, the median time of the raw query
 * and of the agent's answer, and the agent's overhead: the figures of docs/benchmarks.md ("Trino at scale"). No
 * time is asserted.
 */
class TrinoTpchAgentTest {

    private static final List<String> TABLES = List.of("region", "nation", "customer", "orders", "lineitem", "part",
            "supplier", "partsupp");

    @Test
    void everyQuestionIsAnsweredWithItsGoldRows() throws Exception {
        String schema = System.getProperty("sqlagent.tpch.schema", "tiny");
        int rounds = Integer.getInteger("sqlagent.tpch.rounds", 1);
        AtomicReference<String> sql = new AtomicReference<>();
        ScriptedLlm llm = ScriptedLlm.create().fallback(r -> LlmResponse.of(sql.get()));
        SqlAgent agent = SqlAgent.builder().llm(llm)
                .dataSource(new UrlDataSource(TrinoFixture.cluster().jdbcUrl("tpch", schema), TrinoFixture.ADMIN, null))
                .dialect(Dialect.TRINO).policy(GuardPolicy.builder().allowTables(TABLES).build())
                .queryTimeout(Duration.ofMinutes(5)).build();
        List<String> wrong = new ArrayList<>();
        long rawTotal = 0;
        long agentTotal = 0;
        StringBuilder report = new StringBuilder();
        try (Connection raw = TrinoFixture.admin("tpch", schema)) {
            for (TrinoTpchQuestionsTest.Question q : TrinoTpchQuestionsTest.questions()) {
                sql.set(q.gold());
                List<Long> rawNanos = new ArrayList<>();
                List<Long> agentNanos = new ArrayList<>();
                List<String> rawRows = null;
                AgentResult got = null;
                for (int i = 0; i < rounds; i++) {
                    long t0 = System.nanoTime();
                    rawRows = TrinoCorpus.run(raw, q.gold());
                    long t1 = System.nanoTime();
                    got = agent.ask(q.question());
                    long t2 = System.nanoTime();
                    rawNanos.add(t1 - t0);
                    agentNanos.add(t2 - t1);
                }
                if (!(got instanceof AgentResult.Answered a)) {
                    wrong.add(q.id() + ": " + got.status() + " " + got);
                    continue;
                }
                List<String> rows = TrinoCorpus.answered(a);
                if (rawRows.size() <= 1000 && !sorted(rows).equals(sorted(rawRows))) {
                    wrong.add(q.id() + ": rows differ\n    raw " + rawRows + "\n    got " + rows);
                }
                long r = median(rawNanos);
                long g = median(agentNanos);
                rawTotal += r;
                agentTotal += g;
                report.append(String.format(Locale.ROOT, "  q%-3d raw %8.1f ms  agent %8.1f ms  overhead %7.1f ms%n",
                        q.id(), r / 1e6, g / 1e6, (g - r) / 1e6));
            }
        }
        System.out.printf(Locale.ROOT, "trino tpch.%s through the agent, median of %d round(s):%n%s"
                + "  total raw %.1f ms, agent %.1f ms, overhead %.1f ms (%.1f%%)%n", schema, rounds, report,
                rawTotal / 1e6, agentTotal / 1e6, (agentTotal - rawTotal) / 1e6,
                100.0 * (agentTotal - rawTotal) / Math.max(1, rawTotal));
        assertThat(wrong).as("TPC-H questions not answered with their gold rows").isEmpty();
    }

    private static long median(List<Long> xs) {
        List<Long> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }

    private static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>();
        for (String r : rows) {
            // a distributed sum adds in no fixed order (543622.079 or 543622.0789999999): numbers compare to the cent
            StringBuilder b = new StringBuilder();
            for (String cell : r.split("\\|", -1)) {
                String c = cell;
                if (cell.matches("-?\\d+(\\.\\d+)?(E-?\\d+)?")) {
                    c = String.format(Locale.ROOT, "%.2f", Double.parseDouble(cell));
                }
                b.append(b.length() == 0 ? "" : "|").append(c);
            }
            out.add(b.toString());
        }
        Collections.sort(out);
        return out;
    }
}
