package dev.sqlagent.examples.cli;

import dev.sqlagent.engine.trino.TrinoRules;
import dev.sqlagent.guard.GuardPolicy;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code trino-rules} command: Trino's file-based access control rules generated from the same policy the
 * agent enforces, so that the cluster itself refuses what the guard refuses (the third layer). The agent's login
 * may read the policy's tables and nothing else: other catalogs (including {@code system}) none, denied columns
 * {@code allow: false}, each row filter as the table's {@code filter}, only the library's own session properties.
 * Prints the JSON document (or writes it to {@code --output}); exit codes ({@link ExitCodes}): 0 written, 2 on a
 * usage error. See docs/trino.md.
 */
@Command(name = "trino-rules", mixinStandardHelpOptions = true,
        description = "Print Trino file-based access control rules for the agent's login, from the policy.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the rules were printed or written",
            "1:internal error (a bug: please report it)",
            "2:usage error: a bad or missing option, a file that cannot be written"},
        footerHeading = "%nExample:%n",
        footer = {
            "  java -jar sqlagent.jar trino-rules --user analyst --catalog lake --schema sales \\",
            "    --allow-tables orders,customers --deny-columns customers.email \\",
            "    --row-filter orders.region=EU --output /etc/trino/rules.json",
            "  (then in Trino's config: access-control.name=file, security.config-file=/etc/trino/rules.json)"})
final class TrinoRulesCommand implements Callable<Integer> {

    @Option(names = "--user", required = true, paramLabel = "U", description = "The Trino user the agent logs in as.")
    String user;

    @Option(names = "--catalog", required = true, paramLabel = "C",
            description = "The agent's session catalog (resolves table names without one).")
    String catalog;

    @Option(names = "--schema", required = true, paramLabel = "S",
            description = "The agent's session schema (resolves table names without one).")
    String schema;

    @Option(names = "--admin", paramLabel = "U",
            description = "A user left with full access (the rules otherwise hold for every user, and an unlisted"
                    + " one may do nothing).")
    String admin;

    @Option(names = "--output", paramLabel = "FILE", description = "Write the rules to FILE instead of printing them.")
    Path output;

    @Mixin
    PolicyOptions policy = new PolicyOptions();

    private final PrintStream out;
    private final PrintStream err;

    TrinoRulesCommand() {
        this(System.out, System.err);
    }

    TrinoRulesCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        String json;
        try {
            if (policy.allowTables.isEmpty()) {
                throw new IllegalArgumentException("--allow-tables is required: the tables the agent may read"
                        + " (table, schema.table or catalog.schema.table)");
            }
            GuardPolicy p = policy.builder().allowTables(policy.allowTables).build();
            TrinoRules rules = TrinoRules.forUser(p, user, catalog, schema);
            json = (admin == null ? rules : rules.withAdmin(admin)).toJson();
        } catch (IllegalArgumentException | IllegalStateException e) {
            err.println("trino-rules: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        if (output == null) {
            out.println(json);
            out.flush();
            return ExitCodes.OK;
        }
        try {
            Files.writeString(output, json + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("trino-rules: cannot write " + output + ": " + e.getMessage());
            return ExitCodes.USAGE;
        }
        return ExitCodes.OK;
    }
}
