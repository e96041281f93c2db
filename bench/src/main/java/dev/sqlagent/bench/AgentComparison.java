package dev.sqlagent.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The side-by-side harness of the cost-of-governance issue: the contenders of {@link AgentOverheadBenchmark}
 * (plain JDBC, the default agent, the governed agent and LangChain4j's SQL retriever, all on one H2
 * database with the same fake models, the customer changing every question) run in one JVM in short
 * interleaved rounds, so that background load hits them alike, at 1 and at 4 asking threads. For each it
 * prints the median throughput over the rounds, its ratio to the retriever's in the same rounds, and the
 * bytes allocated per question on the asking threads (from {@code ThreadMXBean.getThreadAllocatedBytes}).
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar dev.sqlagent.bench.AgentComparison [rounds] [ms]}
 * [contenders] (default 40 rounds of 250 ms per contender and thread count, after 10 warm-up rounds; a
 * comma-separated list of contenders runs only those, e.g. for a profile of one).
 */
public final class AgentComparison {

    private AgentComparison() {
    }

    /**
     * Runs the comparison and prints one line per contender and thread count.
     *
     * @param args optional rounds (default 40), milliseconds per round (default 250) and contenders
     * @throws Exception if a contender fails to answer
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        long roundNanos = (args.length > 1 ? Long.parseLong(args[1]) : 250) * 1_000_000L;
        AgentOverheadBenchmark b = new AgentOverheadBenchmark();
        b.setUp();
        Map<String, Op> contenders = new LinkedHashMap<>();
        contenders.put("plainJdbc", b::plainJdbc);
        contenders.put("defaultAgent", b::defaultAgent);
        contenders.put("governedAgent", b::governedAgent);
        contenders.put("langchain4jSqlRetriever", b::langchain4jSqlRetriever);
        if (args.length > 2) { // only these (for a profile), e.g. defaultAgent,langchain4jSqlRetriever
            contenders.keySet().retainAll(List.of(args[2].split(",")));
        }
        System.out.printf(Locale.ROOT, "# %d cores, %s %s, %d rounds of %d ms, load average %.2f%n",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                System.getProperty("java.version"), rounds, roundNanos / 1_000_000,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        try {
            for (int threads : new int[] {1, 4}) {
                Map<String, double[]> rates = new LinkedHashMap<>();
                Map<String, double[]> bytes = new LinkedHashMap<>();
                for (String name : contenders.keySet()) {
                    rates.put(name, new double[rounds]);
                    bytes.put(name, new double[rounds]);
                }
                for (int r = -10; r < rounds; r++) {
                    List<String> order = new ArrayList<>(contenders.keySet());
                    java.util.Collections.rotate(order, Math.floorMod(r, order.size()));
                    for (String name : order) {
                        double[] result = round(contenders.get(name), threads, roundNanos);
                        if (r >= 0) {
                            rates.get(name)[r] = result[0];
                            bytes.get(name)[r] = result[1];
                        }
                    }
                }
                double[] retriever = rates.getOrDefault("langchain4jSqlRetriever", rates.values().iterator().next());
                for (String name : contenders.keySet()) {
                    double[] ratio = new double[rounds];
                    for (int r = 0; r < rounds; r++) {
                        ratio[r] = rates.get(name)[r] / retriever[r];
                    }
                    System.out.printf(Locale.ROOT,
                            "threads=%d %-24s %9.0f q/s (p25 %9.0f, p75 %9.0f) | x retriever %.2f (p25 %.2f, p75 %.2f)"
                                    + " | %7.0f bytes/question on the asking thread%n",
                            threads, name, pct(rates.get(name), 50), pct(rates.get(name), 25),
                            pct(rates.get(name), 75), pct(ratio, 50), pct(ratio, 25), pct(ratio, 75),
                            pct(bytes.get(name), 50));
                }
            }
            b.everyQuestionWasAnswered();
        } finally {
            b.tearDown();
        }
        System.out.printf(Locale.ROOT, "# load average at the end %.2f%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** One question. */
    interface Op {
        Object run() throws Exception;
    }

    /** Runs op on threads threads for about the given time; returns {questions per second, bytes per question}. */
    private static double[] round(Op op, int threads, long nanos) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong done = new AtomicLong();
        AtomicLong allocated = new AtomicLong();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    long before = mx.getCurrentThreadAllocatedBytes();
                    long n = 0;
                    while (!stop.get()) {
                        if (op.run() == null) {
                            throw new IllegalStateException("no answer");
                        }
                        n++;
                    }
                    allocated.addAndGet(mx.getCurrentThreadAllocatedBytes() - before);
                    done.addAndGet(n);
                } catch (Throwable e) {
                    errors.add(e);
                }
            });
            w.start();
            workers.add(w);
        }
        start.await();
        long t0 = System.nanoTime();
        Thread.sleep(nanos / 1_000_000);
        stop.set(true);
        for (Thread w : workers) {
            w.join();
        }
        long elapsed = System.nanoTime() - t0;
        if (!errors.isEmpty()) {
            throw new IllegalStateException("a question failed", errors.get(0));
        }
        return new double[] {done.get() / (elapsed / 1e9), (double) allocated.get() / Math.max(1, done.get())};
    }

    private static double pct(double[] xs, int p) {
        double[] copy = xs.clone();
        Arrays.sort(copy);
        return copy[Math.min(copy.length - 1, copy.length * p / 100)];
    }
}
