package dev.sqlagent.examples.cli;

import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.StageMode;
import dev.sqlagent.examples.demo.Scenario;
import dev.sqlagent.examples.demo.ScenarioModel;
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
 * replies reproduce real failures. Exits 0 when every question ends as its scenario expects.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the governed agent on an embedded company database with a scripted model.")
final class DemoCommand implements Callable<Integer> {

    @Option(names = "--json", description = "Print one JSON object per question instead of the readable trace.")
    boolean json;

    @Option(names = "--base-url", description = "Ask a real OpenAI-compatible model at this URL instead of the script"
            + " (or SQLAGENT_LLM_BASE_URL).")
    String baseUrl;

    @Option(names = "--api-key", description = "API key of the real model (or SQLAGENT_LLM_API_KEY).")
    String apiKey;

    @Option(names = "--model", description = "Model name of the real model (or SQLAGENT_LLM_MODEL).")
    String model;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        List<Scenario> scenarios = Scenario.all();
        LlmClient llm;
        boolean scripted;
        try {
            llm = RealModel.choose(baseUrl, apiKey, model);
        } catch (IllegalArgumentException e) {
            System.err.println("demo: " + e.getMessage());
            return 2;
        }
        scripted = llm == null;
        if (scripted) {
            llm = ScenarioModel.of(scenarios);
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
        if (!json) {
            out.println(agent.metrics());
            if (scripted) {
                out.println(unexpected == 0 ? "Every scenario ended as expected."
                        : unexpected + " scenario(s) did not end as expected.");
            }
        }
        return unexpected == 0 ? 0 : 1;
    }

    private static void printJson(PrintStream out, Scenario s, AgentResult r, Boolean asExpected) {
        ResultJson.print(out, r, g -> {
            g.writeStringField("scenario", s.name());
            if (asExpected != null) {
                g.writeBooleanField("as_expected", asExpected);
            }
        });
    }
}
