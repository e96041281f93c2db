package dev.sqlagent.examples.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sqlagent} command line: {@code java -jar examples/target/sqlagent.jar <command>}.
 *
 * <p>Commands print JSON lines whose names and fields are a contract: fields are added, never renamed.
 */
@Command(name = "sqlagent", mixinStandardHelpOptions = true, version = "sqlagent 0.1.0",
        description = "Governed text-to-SQL: demo, classify, guard.",
        subcommands = {DemoCommand.class, ClassifyCommand.class, GuardCommand.class, EvalCommand.class, AuditCommand.class})
public final class SqlAgentCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

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
        return new CommandLine(new SqlAgentCli()).execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
