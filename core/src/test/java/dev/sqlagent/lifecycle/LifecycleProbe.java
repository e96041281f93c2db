package dev.sqlagent.lifecycle;

import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.cases.JsonlCaseSink;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Run in a JVM of its own by {@link LifecycleTest}, so that no other test's agent holds the library's
 * shared threads. It uses every thread the library starts (the guard's and the query's watchdogs, the
 * cancel helpers, the candidate pool, the askAsync executor, a case delivery), closes the agents, and
 * prints one line of facts: {@code threads_before=… peak_in_flight=… platform_added=… virtual=… survivors=…}.
 * Exits 0 unless the probe itself broke.
 */
public final class LifecycleProbe {

    private LifecycleProbe() {
    }

    public static void main(String[] args) throws Exception {
        int questions = Integer.parseInt(args[0]);
        List<String> before = libraryThreads();
        int platformBefore = ManagementFactory.getThreadMXBean().getThreadCount();
        CompanyDatabase db = CompanyDatabase.create();
        Path cases = Files.createTempFile("lifecycle-cases", ".jsonl");

        // 1. every kind of thread, then close
        ScriptedLlm llm = ScriptedLlm.create().fallback(r -> new LlmResponse(List.of("SELECT name FROM employees"),
                new TokenUsage(10, 5), "probe"));
        try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst()).candidates(3)
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES))
                .caseSink(JsonlCaseSink.open(cases)).build()) {
            require(agent.ask("Who works here?").status() == AgentResult.Status.ANSWERED, "sync ask answered");
            require(agent.askAsync("Who works here?").get(30, TimeUnit.SECONDS).status()
                    == AgentResult.Status.ANSWERED, "async ask answered");
        }

        // 2. many questions at once with the default executor: a model that holds every call until all
        //    that can be under way at once are
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        ScriptedLlm held = ScriptedLlm.create().fallback(r -> {
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            inFlight.decrementAndGet();
            return LlmResponse.of("SELECT name FROM employees");
        });
        int platformPeak;
        try (SqlAgent agent = SqlAgent.builder().llm(held).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).build()) {
            List<CompletableFuture<AgentResult>> futures = new ArrayList<>();
            for (int i = 0; i < questions; i++) {
                futures.add(agent.askAsync("Who works here? #" + i));
            }
            int expected = dev.sqlagent.internal.AskExecutor.virtualThreads() ? questions
                    : Math.min(questions, dev.sqlagent.internal.AskExecutor.PLATFORM_THREADS);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (inFlight.get() < expected && System.nanoTime() < until) {
                Thread.onSpinWait();
                Thread.yield();
            }
            platformPeak = ManagementFactory.getThreadMXBean().getThreadCount();
            release.countDown();
            for (CompletableFuture<AgentResult> f : futures) {
                require(f.get(60, TimeUnit.SECONDS).status() == AgentResult.Status.ANSWERED, "held ask answered");
            }
        }

        // threads that were told to stop finish within moments; wait for them rather than race them
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("sqlagent-") && !before.contains(t.getName())) {
                t.join(10_000);
            }
        }
        List<String> survivors = new ArrayList<>(libraryThreads());
        survivors.removeAll(before);
        System.out.println("threads_before=" + before + " peak_in_flight=" + peak.get() + " platform_added="
                + (platformPeak - platformBefore) + " virtual=" + dev.sqlagent.internal.AskExecutor.virtualThreads()
                + " jdk=" + Runtime.version().feature() + " survivors=" + survivors);
    }

    private static List<String> libraryThreads() {
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().startsWith("sqlagent-")) {
                names.add(t.getName());
            }
        }
        return names;
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("probe failed: " + what);
        }
    }
}
