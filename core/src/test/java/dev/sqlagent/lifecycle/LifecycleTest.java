package dev.sqlagent.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An agent stops every thread it started when it is closed, and its default {@code askAsync} executor runs
 * many blocking questions at once without a thread per question. Each check runs {@link LifecycleProbe} in a
 * JVM of its own (other tests' agents, never closed, would keep the shared threads alive here), on this
 * JDK and on the newest JDK installed beside it.
 */
class LifecycleTest {

    /** Where a newer JDK is installed on the project's machines; absent elsewhere. */
    private static final Path NEWEST_JDK = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");

    @Test
    void closingTheAgentLeavesNoLibraryThreadOnThisJdk() throws Exception {
        String facts = probe(Path.of(System.getProperty("java.home"), "bin", "java"));
        assertNoSurvivorAndBoundedThreads(facts);
    }

    @Test
    void closingTheAgentLeavesNoLibraryThreadOnTheNewestJdk() throws Exception {
        if (!Files.isExecutable(NEWEST_JDK)) {
            System.err.println("=== LifecycleTest: no JDK at " + NEWEST_JDK + "; the newest-JDK check did not run ===");
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "no JDK at " + NEWEST_JDK);
        }
        String facts = probe(NEWEST_JDK);
        assertThat(facts).contains("virtual=true");
        assertThat(facts).contains("peak_in_flight=200 ");
        assertNoSurvivorAndBoundedThreads(facts);
    }

    private static void assertNoSurvivorAndBoundedThreads(String facts) {
        assertThat(facts).contains("threads_before=[]").endsWith("survivors=[]");
        int added = Integer.parseInt(facts.replaceAll(".*platform_added=(-?\\d+).*", "$1"));
        // 200 questions held in their model call at once: the pool (48) or a few carriers, not 200 threads
        assertThat(added).isLessThanOrEqualTo(60);
    }

    private static String probe(Path java) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", LifecycleProbe.class.getName(), "200"));
        Path out = Files.createTempFile("lifecycle", ".out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        boolean ended = p.waitFor(5, TimeUnit.MINUTES);
        if (!ended) {
            p.destroyForcibly();
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(ended).as("the probe ended; it printed:%n%s", text).isTrue();
        assertThat(p.exitValue()).as("the probe's exit code; it printed:%n%s", text).isZero();
        String line = text.lines().filter(l -> l.startsWith("threads_before=")).reduce((a, b) -> b).orElse("");
        assertThat(line).as("the probe's facts; it printed:%n%s", text).isNotEmpty();
        System.out.println("LifecycleProbe on " + java + ": " + line);
        return line.strip();
    }

    @SuppressWarnings("unused")
    private static final String SEP = File.pathSeparator;
}
