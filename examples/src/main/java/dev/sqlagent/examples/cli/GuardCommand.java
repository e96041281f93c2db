package dev.sqlagent.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** The {@code guard} command (being written). */
@Command(name = "guard", description = "Not yet available.")
final class GuardCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("guard: not yet available");
        return 2;
    }
}
