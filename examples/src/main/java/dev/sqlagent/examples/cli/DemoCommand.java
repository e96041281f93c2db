package dev.sqlagent.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** The {@code demo} command (being written). */
@Command(name = "demo", description = "Not yet available.")
final class DemoCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("demo: not yet available");
        return 2;
    }
}
