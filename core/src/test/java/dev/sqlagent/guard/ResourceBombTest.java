package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 20, item 3: the in-process engines never allocate past a cap inside the host. A child JVM with
 * {@code -Xmx256m -XX:+ExitOnOutOfMemoryError} ({@link ResourceBombProbe}) runs every class of bomb (string,
 * blob, nested and width expansions, aggregates over cross joins, recursive CTE growth) through an
 * {@code SqlAgent} on H2 and SQLite; an out-of-memory error anywhere, even one H2 catches and turns into an
 * SQL error, ends the child with exit code 3. Each bomb must end rejected or failed with a classified
 * error, never answered.
 */
class ResourceBombTest {

    @Test
    void noBombRunsTheHostOutOfMemory() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = List.of(java.toString(), "-Xmx256m", "-XX:+ExitOnOutOfMemoryError",
                "-cp", System.getProperty("java.class.path"), "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                ResourceBombProbe.class.getName());
        Path out = Files.createTempFile("bombs", ".out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        boolean ended = p.waitFor(5, TimeUnit.MINUTES);
        if (!ended) {
            p.destroyForcibly();
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(ended).as("the probe ended; it printed:%n%s", text).isTrue();
        assertThat(p.exitValue()).as("exit code (3 = out of memory); it printed:%n%s", text).isZero();
        assertThat(text).as("it printed:%n%s", text).contains("DONE").doesNotContain("OutOfMemory");
        List<String> bombs = text.lines().filter(l -> l.startsWith("BOMB ")).toList();
        int expected = 2 * ResourceBombProbe.COMMON.size() + ResourceBombProbe.SQLITE.size()
                + ResourceBombProbe.H2.size() + ResourceBombProbe.SQLITE_UNGUARDED.size();
        assertThat(bombs).hasSize(expected);
        for (String line : bombs) {
            assertThat(line).as("every bomb ends rejected or failed with a classified error")
                    .matches("BOMB \\S+ (REJECTED \\w+|FAILED \\S+) :: .*").doesNotContain("UNKNOWN");
        }
        System.out.println(String.join("\n", bombs));
    }
}
