package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.internal.JsonTree;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The TPC-H question set ({@code trino-tpch/questions.jsonl}) for the scale benchmark: every gold SQL runs on the
 * cluster over {@code tpch.tiny} and returns rows, and is planned over {@code tpch.sf1}, the benchmark's schema
 * (run there too under {@code -Dsqlagent.tpch.sf1=true}).
 */
class TrinoTpchQuestionsTest {

    record Question(int id, String catalog, String schema, String question, String gold) {
    }

    static List<Question> questions() throws Exception {
        List<Question> out = new ArrayList<>();
        try (InputStream in = TrinoTpchQuestionsTest.class.getResourceAsStream("/trino-tpch/questions.jsonl")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    Map<String, Object> m = JsonTree.parseObject(line);
                    out.add(new Question(((Number) m.get("id")).intValue(), (String) m.get("catalog"),
                            (String) m.get("schema"), (String) m.get("question"), (String) m.get("gold_sql")));
                }
            }
        }
        return out;
    }

    @Test
    void everyGoldRunsOnTinyAndIsPlannedAtScale() throws Exception {
        List<Question> qs = questions();
        assertThat(qs).hasSizeGreaterThanOrEqualTo(15);
        boolean sf1 = Boolean.getBoolean("sqlagent.tpch.sf1");
        List<String> bad = new ArrayList<>();
        try (Connection tiny = TrinoFixture.admin("tpch", "tiny");
             Connection scale = TrinoFixture.admin("tpch", "sf1")) {
            for (Question q : qs) {
                assertThat(q.catalog() + "." + q.schema()).isEqualTo("tpch.sf1");
                try {
                    List<String> rows = TrinoCorpus.run(tiny, q.gold());
                    List<String> plan = TrinoCorpus.run(scale, "EXPLAIN " + q.gold());
                    if (rows.isEmpty()) {
                        bad.add(q.id() + ": no row on tiny");
                    } else if (plan.isEmpty()) {
                        bad.add(q.id() + ": no plan on sf1");
                    } else if (sf1 && TrinoCorpus.run(scale, q.gold()).isEmpty()) {
                        bad.add(q.id() + ": no row on sf1");
                    }
                } catch (Exception e) {
                    bad.add(q.id() + ": " + e.getMessage());
                }
            }
        }
        assertThat(bad).isEmpty();
    }
}
