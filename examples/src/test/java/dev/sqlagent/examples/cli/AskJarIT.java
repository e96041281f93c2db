package dev.sqlagent.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar target/sqlagent.jar ask …} as a child process, after {@code package}: the shaded jar's
 * drivers and services, the model from the environment, real exit codes, standard input from a pipe.
 */
class AskJarIT {

    private static final Path JAR = Path.of(System.getProperty("sqlagent.jar", "target/sqlagent.jar"));

    private static FakeModel model;
    private static String shop;

    @TempDir
    static Path dir;

    record Result(int code, String out, String err) {
    }

    @BeforeAll
    static void start() throws Exception {
        assertThat(JAR).as("mvn package builds it").isRegularFile();
        model = new FakeModel(AskRunner::shop);
        shop = ShopDatabase.sqlite(dir);
    }

    @AfterAll
    static void stop() throws Exception {
        model.close();
    }

    /** Runs the jar with no model variables but those given, and this standard input. */
    private static Result run(Map<String, String> env, String stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("SQLAGENT_LLM_") || k.startsWith("OPENAI_"));
        pb.environment().putAll(env);
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // the process may exit before reading its input (a usage error)
        }
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the jar ends").isTrue();
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void aConversationOnAPipeWithTheModelFromTheEnvironment() throws Exception {
        Result r = run(Map.of("SQLAGENT_LLM_BASE_URL", model.baseUrl(), "SQLAGENT_LLM_MODEL", "fake-sql"),
                "How many orders were placed in 2023?\nand last year?\nexit\n",
                "ask", "--jdbc-url", shop, "--allow-tables", "customers,orders");

        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("           3\n(1 row)", "(understood as: How many orders were placed in 2022?)",
                "           2\n(1 row)");
        // every table of a SQLite file is readable: salaries too, which the policy does not allow
        assertThat(r.err().strip()).startsWith("ask: warning: the login can read what the policy forbids (salaries)")
                .doesNotContain("\n");
    }

    @Test
    void aRejectionExitsThreeAndTheJsonIsOneLine() throws Exception {
        Result r = run(Map.of("SQLAGENT_LLM_BASE_URL", model.baseUrl(), "SQLAGENT_LLM_MODEL", "fake-sql"), "",
                "ask", "--jdbc-url", shop, "--allow-tables", "customers,orders", "--json", "What are the salaries?");

        assertThat(r.code()).as(r.toString()).isEqualTo(3);
        assertThat(r.out().strip()).doesNotContain("\n").contains("\"status\":\"REJECTED\"");
    }

    @Test
    void noModelConfiguredIsAUsageError() throws Exception {
        Result r = run(Map.of(), "", "ask", "--jdbc-url", shop, "--allow-tables", "orders", "How many orders?");

        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("ask: no model: give --base-url URL --model NAME");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void theDriversAreInTheJar() throws Exception {
        for (String url : List.of("jdbc:postgresql://127.0.0.1:1/x", "jdbc:mariadb://127.0.0.1:1/x")) {
            Result r = run(Map.of("SQLAGENT_LLM_BASE_URL", model.baseUrl(), "SQLAGENT_LLM_MODEL", "fake-sql"), "",
                    "ask", "--jdbc-url", url, "--allow-tables", "orders", "--timeout-seconds", "5", "How many orders?");
            assertThat(r.code()).as("a driver took " + url + " and could not connect: " + r).isEqualTo(5);
        }
    }
}
