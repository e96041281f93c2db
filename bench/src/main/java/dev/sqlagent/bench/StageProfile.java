package dev.sqlagent.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Per-stage shares of a question's CPU time, from a Java Flight Recorder sampling profile: each execution
 * sample of an asking thread goes to the first stage (in the order below) that one of its frames belongs
 * to, so that, say, the JDBC driver's frames under the engine check count as the engine check. Samples of
 * the asking threads and of the agent's own pool threads (where a round's candidates are read and run side
 * by side) count; samples of other threads (the benchmark's setup, the JFR recorder) are left out.
 *
 * <p>Record and read:
 * <pre>
 * java -XX:StartFlightRecording=filename=/tmp/agent.jfr,settings=profile -cp bench/target/benchmarks.jar \
 *     dev.sqlagent.bench.AgentComparison only=defaultAgent rounds=30
 * java -cp bench/target/benchmarks.jar dev.sqlagent.bench.StageProfile /tmp/agent.jfr
 * </pre>
 */
public final class StageProfile {

    private StageProfile() {
    }

    private static Predicate<String> under(String... prefixes) {
        return frame -> {
            for (String p : prefixes) {
                if (frame.startsWith(p)) {
                    return true;
                }
            }
            return false;
        };
    }

    /** The stages, most specific first: a sample counts for the first whose frame it holds. */
    static final Map<String, Predicate<String>> STAGES = new LinkedHashMap<>();

    static {
        STAGES.put("connection (DataSource.getConnection)", f -> f.endsWith(".getConnection"));
        STAGES.put("execution (JdbcSqlExecutor, driver, engine)", under("dev.sqlagent.execution.JdbcSqlExecutor"));
        STAGES.put("engine check (plan, catalog, reading)", under("dev.sqlagent.guard.engine."));
        STAGES.put("guard: JSqlParser parse", under("net.sf.jsqlparser.parser."));
        STAGES.put("guard: own passes (lexer, walk, rewrite, printing)", under("dev.sqlagent.guard."));
        STAGES.put("choice", under("dev.sqlagent.choose.", "dev.sqlagent.internal.run.ChooseStep"));
        STAGES.put("verifiers", under("dev.sqlagent.verify.", "dev.sqlagent.internal.run.Findings"));
        STAGES.put("cleaning the reply", under("dev.sqlagent.clean."));
        STAGES.put("prompt and schema text", under("dev.sqlagent.internal.Prompts", "dev.sqlagent.internal.SchemaText",
                "dev.sqlagent.PromptTemplates", "dev.sqlagent.schema.", "dev.sqlagent.internal.run.GenerateStep",
                "dev.sqlagent.llm."));
        STAGES.put("cases, trace, metrics", under("dev.sqlagent.cases.", "dev.sqlagent.trace.", "dev.sqlagent.metrics.",
                "dev.sqlagent.internal.CaseBuilder", "dev.sqlagent.internal.CaseJson", "dev.sqlagent.internal.TraceJson",
                "dev.sqlagent.internal.FixCache"));
        STAGES.put("fake model (benchmark)", under("dev.sqlagent.bench.AgentOverheadBenchmark$Fake"));
        STAGES.put("LangChain4j retriever", under("dev.langchain4j."));
        STAGES.put("state machine and the rest of the agent", under("dev.sqlagent."));
    }

    /**
     * Prints each stage's share of the asking threads' samples.
     *
     * @param args the recording
     * @throws Exception if it cannot be read
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: StageProfile <recording.jfr>");
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String stage : STAGES.keySet()) {
            counts.put(stage, 0L);
        }
        counts.put("JVM and JDK only", 0L);
        long total = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
                continue;
            }
            List<String> frames = new ArrayList<>();
            for (RecordedFrame f : e.getStackTrace().getFrames()) {
                frames.add(f.getMethod().getType().getName() + "." + f.getMethod().getName());
            }
            if (!answering(frames)) {
                continue;
            }
            total++;
            String stage = "JVM and JDK only";
            search:
            for (Map.Entry<String, Predicate<String>> s : STAGES.entrySet()) {
                for (String f : frames) {
                    if (s.getValue().test(f)) {
                        stage = s.getKey();
                        break search;
                    }
                }
            }
            counts.merge(stage, 1L, Long::sum);
        }
        System.out.printf(Locale.ROOT, "%d samples of the threads answering questions%n", total);
        for (Map.Entry<String, Long> c : counts.entrySet()) {
            if (c.getValue() > 0) {
                System.out.printf(Locale.ROOT, "%5.1f %%  %6d  %s%n", 100.0 * c.getValue() / total, c.getValue(), c.getKey());
            }
        }
    }

    /** A sample of a thread answering questions: an asking thread, or an agent's pool thread at work. */
    private static boolean answering(List<String> frames) {
        boolean work = false;
        for (String f : frames) {
            if (f.startsWith("dev.sqlagent.bench.AgentOverheadBenchmark.setUp")) {
                return false;
            }
            work |= f.startsWith("dev.sqlagent.bench.AgentComparison.lambda$round")
                    || f.startsWith("dev.sqlagent.bench.AgentOverheadBenchmark.")
                    || f.startsWith("dev.sqlagent.internal.run.");
        }
        return work;
    }
}
