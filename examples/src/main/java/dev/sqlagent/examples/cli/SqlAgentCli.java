package dev.sqlagent.examples.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sqlagent} command line: {@code java -jar examples/target/sqlagent.jar <command>}.
 *
 * <p>Commands print JSON lines whose names and fields are a contract: fields are added, never renamed.
 */
@Command(name = "sqlagent", mixinStandardHelpOptions = true, version = "sqlagent 0.1.0",
        description = "Governed text-to-SQL: demo, ask, classify, guard, audit, eval, mcp.",
        subcommands = {DemoCommand.class, AskCommand.class, ClassifyCommand.class, GuardCommand.class, EvalCommand.class,
            AuditCommand.class, McpCommand.class, TrinoRulesCommand.class})
public final class SqlAgentCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Read before picocli parses (see {@link Logging}); declared here so that it is documented and accepted. */
    @CommandLine.Option(names = "--log-level", paramLabel = "LEVEL", scope = CommandLine.ScopeType.INHERIT,
            description = "Log level on standard error: error, warn (default), info, debug, trace or off; also "
                    + "SQLAGENT_LOG_LEVEL.")
    void logLevel(String level) {
        if (!Logging.LEVELS.contains(level.strip().toLowerCase(java.util.Locale.ROOT))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--log-level must be one of "
                    + Logging.LEVELS + " but was '" + level + "'");
        }
    }

    /**
     * Runs the command line.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Runs the command line without exiting, for tests.
     *
     * @param args the arguments
     * @return the exit code
     */
    public static int run(String... args) {
        Logging.configure(args, System.getenv());
        return new CommandLine(new SqlAgentCli()).execute(args);
    }

    /**
     * Runs the command line with the given standard streams and environment (for {@code ask}), for tests
     * that run it as a user would, without a child process.
     */
    static int run(java.io.InputStream in, java.io.PrintStream out, java.io.PrintStream err,
            java.util.Map<String, String> env, String... args) {
        Logging.configure(args, env);
        CommandLine.IFactory defaults = CommandLine.defaultFactory();
        CommandLine.IFactory factory = new CommandLine.IFactory() {
            @Override
            @SuppressWarnings("unchecked")
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == McpCommand.class) {
                    return (K) new McpCommand(in, out, err, env);
                }
                return cls == AskCommand.class ? (K) new AskCommand(in, out, err, env, false) : defaults.create(cls);
            }
        };
        CommandLine cl = new CommandLine(new SqlAgentCli(), factory);
        cl.setOut(new java.io.PrintWriter(new java.io.OutputStreamWriter(out, java.nio.charset.StandardCharsets.UTF_8), true));
        cl.setErr(new java.io.PrintWriter(new java.io.OutputStreamWriter(err, java.nio.charset.StandardCharsets.UTF_8), true));
        return cl.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
