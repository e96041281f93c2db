package dev.sqlagent.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** The {@code classify} command (being written). */
@Command(name = "classify", description = "Not yet available.")
final class ClassifyCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("classify: not yet available");
        return 2;
    }
}
