package dev.sqlagent.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layout the design promises, checked on the sources: the state machine alone moves, steps only
 * report outcomes, and the run's classes stay small.
 */
class RunArchitectureTest {

    private static final Path MAIN = Paths.get("src/main/java");
    private static final Path RUN = MAIN.resolve("dev/sqlagent/internal/run");

    private static List<Path> sources(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    @Test
    void onlyApplyChangesTheStageAndNothingElseCallsAMove() throws IOException {
        List<String> mutators = new ArrayList<>();
        for (Method m : StateMachine.class.getDeclaredMethods()) {
            if (!Modifier.isPrivate(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())
                    && m.getReturnType() != boolean.class && m.getReturnType() != int.class) {
                mutators.add(m.getName());
            }
        }
        // overrule only decides which outcome stands (a stop from outside, never over a rejection); it
        // does not move: StateMachineTest applies its answer
        assertThat(mutators).containsExactlyInAnyOrder("apply", "current", "overrule");
        List<String> offenders = new ArrayList<>();
        for (Path p : sources(MAIN)) {
            if (p.endsWith("StateMachine.java")) {
                continue;
            }
            String text = Files.readString(p);
            if (text.contains("moveTo(") || text.contains("machine.move(")) {
                offenders.add(p.toString());
            }
        }
        assertThat(offenders).as("code outside the state machine that moves it").isEmpty();
    }

    @Test
    void stepsReportOutcomesAndNeverHoldTheMachine() throws IOException {
        for (Path p : sources(RUN)) {
            String name = p.getFileName().toString();
            if (name.endsWith("Step.java") && !name.equals("Step.java")) {
                assertThat(Files.readString(p)).as(name).doesNotContain("StateMachine").contains("implements Step");
            }
        }
    }

    @Test
    void theRunsClassesAreSmallAndTheDriverShort() throws IOException {
        for (Path p : sources(RUN)) {
            long lines = Files.readAllLines(p).size();
            assertThat(lines).as(p.getFileName().toString()).isLessThanOrEqualTo(400);
        }
        assertThat(Files.readAllLines(RUN.resolve("QuestionRun.java"))).hasSizeLessThan(120);
    }
}
