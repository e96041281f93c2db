package dev.sqlagent.examples.cli;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.StageMode;
import dev.sqlagent.examples.demo.Scenario;
import dev.sqlagent.examples.demo.ScenarioModel;
import dev.sqlagent.execution.DuckDbFiles;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.testkit.CompanyDatabase;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code demo}: the company database on embedded H2 and a fixed set of questions whose scripted model
 * replies reproduce real failures. Exits 0 when every question ends as its scenario expects, 4 when one does
 * not ({@link ExitCodes}).
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the governed agent on an embedded company database with a scripted model.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every scenario ended as expected (or a real model answered them)",
            "1:internal error (a bug: please report it)",
            "2:usage error: a bad or missing option, a missing environment variable",
            "4:failed: a scenario did not end as expected"})
final class DemoCommand implements Callable<Integer> {

    @Option(names = "--json", description = "Print one JSON object per question instead of the readable trace.")
    boolean json;

    @Option(names = "--base-url", description = "Ask a real OpenAI-compatible model at this URL instead of the script"
            + " (or SQLAGENT_LLM_BASE_URL).")
    String baseUrl;

    @Option(names = "--api-key", description = "DEPRECATED (visible in the process list and the shell's history): "
            + "use --api-key-env or SQLAGENT_LLM_API_KEY.")
    String apiKey;

    @Option(names = "--api-key-env", paramLabel = "VAR", description = "The environment variable holding the real "
            + "model's API key (default SQLAGENT_LLM_API_KEY, then OPENAI_API_KEY, when set).")
    String apiKeyEnv;

    @Option(names = "--model", description = "Model name of the real model (or SQLAGENT_LLM_MODEL).")
    String model;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        List<Scenario> scenarios = Scenario.all();
        LlmClient llm;
        boolean scripted;
        String key = apiKey;
        if (apiKey != null) {
            if (apiKeyEnv != null) {
                System.err.println("demo: give --api-key-env or --api-key, not both");
                return ExitCodes.USAGE;
            }
            System.err.println("demo: WARNING: --api-key is deprecated: the key shows in the process list and the "
                    + "shell's history; export it and give --api-key-env VAR (or set SQLAGENT_LLM_API_KEY)");
        } else if (apiKeyEnv != null) {
            key = System.getenv(apiKeyEnv);
            if (key == null) {
                System.err.println("demo: environment variable " + apiKeyEnv + " (--api-key-env) is not set; export it,"
                        + " or name the variable that holds the key");
                return ExitCodes.USAGE;
            }
        } else if (baseUrl != null || model != null) {
            // options name the model: its key still comes from the environment, never the command line
            key = System.getenv("SQLAGENT_LLM_API_KEY") != null ? System.getenv("SQLAGENT_LLM_API_KEY")
                    : System.getenv("OPENAI_API_KEY");
        }
        try {
            llm = RealModel.choose(baseUrl, key, model);
        } catch (IllegalArgumentException e) {
            System.err.println("demo: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        scripted = llm == null;
        if (scripted) {
            List<Scenario> every = new java.util.ArrayList<>(scenarios);
            every.addAll(Scenario.files());
            llm = ScenarioModel.of(every);
        }
        CompanyDatabase db = CompanyDatabase.create();
        SqlAgent agent = SqlAgent.builder()
                .llm(llm)
                .dataSource(db.analyst())
                .policy(GuardPolicy.builder().allowTables(CompanyDatabase.ALLOWED_TABLES).maxRows(200).build())
                .queryTimeout(Duration.ofSeconds(1))
                .build();
        SqlAgent allRoles = agent.toBuilder().selector(StageMode.ALWAYS).build();
        if (!json) {
            out.println("sqlagent demo: embedded H2 company database, " + (scripted ? "scripted model replaying real"
                    + " failures" : "real model") + ", policy allows " + String.join(", ", CompanyDatabase.ALLOWED_TABLES)
                    + " (not salary_detail); the database role may not read audit_log.");
            out.println();
        }
        int unexpected = 0;
        TracePrinter printer = new TracePrinter(out);
        for (int i = 0; i < scenarios.size(); i++) {
            Scenario s = scenarios.get(i);
            AgentResult r = (s.allRoles() ? allRoles : agent).ask(s.question());
            boolean asExpected = r.status() == s.expected() && r.trace().correctionCount() == s.expectedCorrections();
            if (scripted && !asExpected) {
                unexpected++;
            }
            if (json) {
                printJson(out, s, r, scripted ? asExpected : null);
            } else {
                printer.print((i + 1) + ". " + s.name() + (scripted && !asExpected ? "  [UNEXPECTED: wanted "
                        + s.expected() + " with " + s.expectedCorrections() + " correction(s)]" : ""), r);
            }
        }
        try {
            unexpected += files(llm, scripted, printer, out, scenarios.size());
        } catch (java.io.IOException | java.sql.SQLException e) {
            System.err.println("demo: the files scenarios cannot run: " + e.getMessage());
            unexpected++;
        }
        if (!json) {
            out.println(agent.metrics());
            if (scripted) {
                out.println(unexpected == 0 ? "Every scenario ended as expected."
                        : unexpected + " scenario(s) did not end as expected.");
            }
        }
        return unexpected == 0 ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /**
     * The files scenarios: the shipped {@code sales.csv} as the table {@code sales} of a locked DuckDB.
     *
     * @return how many did not end as expected (scripted model only)
     */
    private int files(LlmClient llm, boolean scripted, TracePrinter printer, PrintStream out, int done)
            throws java.io.IOException, java.sql.SQLException {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("sqlagent-demo");
        java.nio.file.Path csv = dir.resolve("sales.csv");
        try (java.io.InputStream in = DemoCommand.class.getResourceAsStream("/dev/sqlagent/examples/demo/sales.csv")) {
            java.nio.file.Files.copy(java.util.Objects.requireNonNull(in, "demo sales.csv"), csv);
        }
        int unexpected = 0;
        try (DuckDbFiles db = DuckDbFiles.builder().csv("sales", csv).open();
             SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db).dialect(Dialect.DUCKDB)
                     .policy(GuardPolicy.builder().allowTables("sales").maxRows(200).build())
                     .queryTimeout(Duration.ofSeconds(5)).build()) {
            if (!json) {
                out.println("Files as tables: sales.csv registered as the table sales in an in-process DuckDB locked"
                        + " to that file (no other file, URL, extension or setting reachable from SQL).");
                out.println();
            }
            List<Scenario> files = Scenario.files();
            for (int i = 0; i < files.size(); i++) {
                Scenario s = files.get(i);
                AgentResult r = agent.ask(s.question());
                boolean asExpected = r.status() == s.expected() && r.trace().correctionCount() == s.expectedCorrections();
                if (scripted && !asExpected) {
                    unexpected++;
                }
                if (json) {
                    printJson(out, s, r, scripted ? asExpected : null);
                } else {
                    printer.print((done + i + 1) + ". " + s.name() + (scripted && !asExpected ? "  [UNEXPECTED: wanted "
                            + s.expected() + " with " + s.expectedCorrections() + " correction(s)]" : ""), r);
                }
            }
        } finally {
            java.nio.file.Files.deleteIfExists(csv);
            java.nio.file.Files.deleteIfExists(dir);
        }
        return unexpected;
    }

    private static void printJson(PrintStream out, Scenario s, AgentResult r, Boolean asExpected) {
        ResultJson.print(out, r, 200, g -> {
            g.writeStringField("scenario", s.name());
            if (asExpected != null) {
                g.writeBooleanField("as_expected", asExpected);
            }
        });
    }
}
