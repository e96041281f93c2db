package dev.sqlagent.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DemoCommandTest {

    private static String run(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            assertThat(SqlAgentCli.run(args)).as("exit code").isZero();
        } finally {
            System.setOut(saved);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void everyScenarioEndsAsExpectedAndPrintsTheContractFields() {
        List<String> lines = Arrays.stream(run("demo", "--json").split("\n")).filter(l -> !l.isBlank())
                .collect(Collectors.toList());

        assertThat(lines).hasSize(9);
        assertThat(lines).allSatisfy(l -> assertThat(l)
                .contains("\"question\":", "\"status\":", "\"corrections\":", "\"llm_calls\":", "\"sql\":",
                        "\"error_category\":", "\"as_expected\":true"));
        assertThat(lines.get(1)).contains("\"status\":\"ANSWERED\"", "\"corrections\":1", "TABLE_NOT_FOUND");
        assertThat(lines.get(4)).contains("\"status\":\"REJECTED\"", "\"llm_calls\":1");
        assertThat(lines.get(5)).contains("PERMISSION_DENIED", "\"corrections\":0");
        assertThat(lines.get(6)).contains("TIMEOUT", "\"corrections\":0");
        assertThat(lines.get(8)).contains("CORRECTION_UNCHANGED");
    }

    @Test
    void readableTraceShowsTheCorrectionRecord() {
        String out = run("demo");

        assertThat(out).contains("original sql:", "original error:", "reason:", "corrected sql:")
                .contains("Every scenario ended as expected.");
    }
}
