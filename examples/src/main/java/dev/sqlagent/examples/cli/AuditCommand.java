package dev.sqlagent.examples.cli;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeAudit;
import dev.sqlagent.guard.engine.PrivilegeReport;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code audit} command: whether a database login can read tables or columns the policy forbids, or
 * write at all. Prints one JSON line with {@code --json} ({@code dialect}, {@code login},
 * {@code least_privilege}, {@code can_write}, {@code writes}, {@code forbidden_tables_readable},
 * {@code denied_columns_readable}, {@code notes}), a text report otherwise. Exit codes ({@link ExitCodes}): 0
 * when the login has least privilege, 3 when the guard is the only line of defence for something, 2 on a usage
 * error, 5 when the database cannot be reached.
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = "Report whether the database login can read what the policy forbids, or write at all.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:least privilege: the database itself refuses what the policy forbids",
            "1:internal error (a bug: please report it)",
            "2:usage error: a bad or missing option, a missing environment variable",
            "3:refused: the login can read what the policy forbids, or write (see the report)",
            "5:the database cannot be reached: a missing file, an unknown host, nothing listening, a refused login"})
final class AuditCommand implements Callable<Integer> {

    /** Stands for "no table allowed": a policy needs one, and no database has it. */
    private static final String NO_TABLE = "sqlagent_no_table_allowed";

    @Option(names = "--jdbc-url", required = true, paramLabel = "URL", description = "The database's JDBC URL.")
    String jdbcUrl;

    @Option(names = "--user", paramLabel = "U", description = "The login to audit.")
    String user;

    @Option(names = "--password-env", paramLabel = "VAR",
            description = "The environment variable holding the password (never passed on the command line).")
    String passwordEnv;

    @Option(names = "--allow-tables", split = ",", paramLabel = "TABLE",
            description = "Tables the policy allows (comma separated, optionally schema-qualified); none: every "
                    + "readable table is reported.")
    List<String> allowTables = new ArrayList<>();

    @Option(names = "--deny-columns", split = ",", paramLabel = "TABLE.COLUMN",
            description = "Columns the policy denies, as table.column (comma separated).")
    List<String> denyColumns = new ArrayList<>();

    @Option(names = "--dialect", description = "h2, sqlite, postgresql, mysql, mariadb (default: from the database).")
    String dialect;

    @Option(names = "--json", description = "Print one JSON line instead of the text report.")
    boolean json;

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> env;

    AuditCommand() {
        this(System.out, System.err, System.getenv());
    }

    AuditCommand(PrintStream out, PrintStream err, Map<String, String> env) {
        this.out = out;
        this.err = err;
        this.env = env;
    }

    @Override
    public Integer call() {
        String password = null;
        if (passwordEnv != null) {
            password = env.get(passwordEnv);
            if (password == null) {
                err.println("audit: environment variable " + passwordEnv + " (--password-env) is not set; export it, "
                        + "or name the variable that holds the password");
                return ExitCodes.USAGE;
            }
        }
        PrivilegeReport report;
        try {
            GuardPolicy.Builder b = GuardPolicy.builder()
                    .allowTables(allowTables.isEmpty() ? List.of(NO_TABLE) : allowTables);
            PolicyOptions.denyColumns(b, denyColumns);
            UrlDataSource ds = new UrlDataSource(jdbcUrl, user, password);
            Dialect d;
            if (dialect != null) {
                d = Dialect.parse(dialect);
            } else {
                try (Connection c = ds.getConnection()) {
                    d = Dialect.fromProductName(c.getMetaData().getDatabaseProductName());
                }
            }
            report = PrivilegeAudit.audit(ds, d, b.build());
        } catch (IllegalArgumentException | IllegalStateException e) {
            err.println("audit: " + e.getMessage());
            return ExitCodes.USAGE;
        } catch (SQLException e) {
            err.println("audit: " + Causes.connection(e, AskCommand.redact(jdbcUrl), user));
            return ExitCodes.UNREACHABLE;
        }
        out.println(json ? report.toJson() : report.toText());
        out.flush();
        return report.guardIsOnlyDefence() ? ExitCodes.REFUSED : ExitCodes.OK;
    }
}
