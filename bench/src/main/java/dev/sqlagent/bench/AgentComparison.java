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
 * (plain JDBC, the default agent with and without the engine check, the governed agent and LangChain4j's
 * SQL retriever, on one database with the same fake models, no two questions alike) run in one JVM in
 * short interleaved rounds, so that background load hits them alike, at 1 and at 4 asking threads. For
 * each it prints the median throughput over the rounds (and the quartiles), its ratio to the retriever's
 * and to plain JDBC's in the same rounds, and the bytes allocated per question on the asking threads (from
 * {@code ThreadMXBean.getThreadAllocatedBytes}).
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar dev.sqlagent.bench.AgentComparison [key=value ...]}
 * with {@code rounds=40} (measured, after 10 warm-up rounds), {@code ms=250} (per contender and round),
 * {@code threads=1,4}, {@code engine=h2} (or {@code postgresql}, {@code mariadb}: the test servers, see
 * {@link AgentOverheadBenchmark#database}), {@code only=} (a comma-separated list of contenders, e.g.
 * for a profile of one), {@code sql=one} (or {@code varied}: eight shapes of SQL, joins, grouping, a
 * sub-query, a CTE, a window, see {@link AgentOverheadBenchmark#variedSql}) and {@code customers=1000}
 * (five orders each; {@code customers=40} is a 200-row orders table).
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
        Map<String, String> options = new LinkedHashMap<>(Map.of("rounds", "40", "ms", "250", "threads", "1,4",
                "engine", "h2", "only", "",
                "sql", "one", "customers", "1000"));
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq < 0 || !options.containsKey(a.substring(0, eq))) {
                throw new IllegalArgumentException("expected key=value with a key among " + options.keySet()
                        + " but got '" + a + "'");
            }
            options.put(a.substring(0, eq), a.substring(eq + 1));
        }
        int rounds = Integer.parseInt(options.get("rounds"));
        long roundNanos = Long.parseLong(options.get("ms")) * 1_000_000L;
        AgentOverheadBenchmark.varied = switch (options.get("sql")) {
            case "one" -> false;
            case "varied" -> true;
            default -> throw new IllegalArgumentException("sql must be one or varied but was " + options.get("sql"));
        };
        AgentOverheadBenchmark.customers = Integer.parseInt(options.get("customers"));
        AgentOverheadBenchmark b = new AgentOverheadBenchmark();
        b.engine = options.get("engine");
        b.setUp();
        Map<String, Op> contenders = new LinkedHashMap<>();
        contenders.put("plainJdbc", b::plainJdbc);
        contenders.put("defaultAgent", b::defaultAgent);
        contenders.put("defaultAgentWithoutEngineCheck", b::defaultAgentWithoutEngineCheck);
        contenders.put("governedAgent", b::governedAgent);
        contenders.put("langchain4jSqlRetriever", b::langchain4jSqlRetriever);
        if (!options.get("only").isEmpty()) {
            contenders.keySet().retainAll(List.of(options.get("only").split(",")));
        }
        System.out.printf(Locale.ROOT, "# %s, sql=%s, %d customers, %d cores, %s %s, %d rounds of %d ms,"
                        + " load average %.2f%n", b.engine, options.get("sql"), AgentOverheadBenchmark.customers, Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                System.getProperty("java.version"), rounds, roundNanos / 1_000_000,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        try {
            for (String t : options.get("threads").split(",")) {
                int threads = Integer.parseInt(t.trim());
                Map<String, double[]> rates = new LinkedHashMap<>();
                Map<String, double[]> bytes = new LinkedHashMap<>();
                Map<String, double[]> bytesEverywhere = new LinkedHashMap<>();
                Map<String, double[]> cpu = new LinkedHashMap<>();
                Map<String, double[]> askingCpu = new LinkedHashMap<>();
                for (String name : contenders.keySet()) {
                    askingCpu.put(name, new double[rounds]);
                    rates.put(name, new double[rounds]);
                    bytes.put(name, new double[rounds]);
                    bytesEverywhere.put(name, new double[rounds]);
                    cpu.put(name, new double[rounds]);
                }
                for (int r = -10; r < rounds; r++) {
                    List<String> order = new ArrayList<>(contenders.keySet());
                    java.util.Collections.rotate(order, Math.floorMod(r, order.size()));
                    for (String name : order) {
                        double[] result = round(contenders.get(name), threads, roundNanos);
                        if (r >= 0) {
                            rates.get(name)[r] = result[0];
                            bytes.get(name)[r] = result[1];
                            bytesEverywhere.get(name)[r] = result[2];
                            cpu.get(name)[r] = result[3];
                            askingCpu.get(name)[r] = result[4];
                        }
                    }
                }
                double[] retriever = rates.get("langchain4jSqlRetriever");
                double[] plain = rates.get("plainJdbc");
                for (String name : contenders.keySet()) {
                    System.out.printf(Locale.ROOT, "threads=%d %-31s %8.0f q/s (p25 %8.0f, p75 %8.0f)%s%s"
                                    + " | %7.0f bytes/question asking thread, %7.0f all threads"
                            + " | process CPU %6.0f us/question%s, asking threads %5.0f%n",
                            threads, name, pct(rates.get(name), 50), pct(rates.get(name), 25),
                            pct(rates.get(name), 75), ratio(" x retriever", rates.get(name), retriever),
                            ratio(" x plainJdbc", rates.get(name), plain), pct(bytes.get(name), 50),
                            pct(bytesEverywhere.get(name), 50), pct(cpu.get(name), 50),
                            retriever == null ? "" : String.format(Locale.ROOT, " (retriever/this %.2f)",
                                    pct(cpu.get("langchain4jSqlRetriever"), 50) / pct(cpu.get(name), 50)),
                            pct(askingCpu.get(name), 50));
                }
            }
            b.everyQuestionWasAnswered();
        } finally {
            b.tearDown();
        }
        System.out.printf(Locale.ROOT, "# load average at the end %.2f%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** The median of the per-round ratios (and their quartiles), or nothing without the other contender. */
    private static String ratio(String label, double[] rates, double[] other) {
        if (other == null) {
            return "";
        }
        double[] r = new double[rates.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = rates[i] / other[i];
        }
        return String.format(Locale.ROOT, " |%s %.2f (p25 %.2f, p75 %.2f)", label, pct(r, 50), pct(r, 25), pct(r, 75));
    }

    /** One question. */
    interface Op {
        Object run() throws Exception;
    }

    /**
     * Runs op on threads threads for about the given time; returns {questions per second, bytes per question
     * on the asking threads, bytes per question everywhere, process CPU microseconds per question, the
     * asking threads' own CPU microseconds per question}.
     */
    private static double[] round(Op op, int threads, long nanos) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong done = new AtomicLong();
        AtomicLong allocated = new AtomicLong();
        AtomicLong askingNanos = new AtomicLong();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        long everywhereBefore = allThreads(mx); // before the workers exist: they count their own bytes
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore = os.getProcessCpuTime();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    long before = mx.getCurrentThreadAllocatedBytes();
                    long cpuStart = mx.getCurrentThreadCpuTime();
                    long n = 0;
                    while (!stop.get()) {
                        if (op.run() == null) {
                            throw new IllegalStateException("no answer");
                        }
                        n++;
                    }
                    allocated.addAndGet(mx.getCurrentThreadAllocatedBytes() - before);
                    askingNanos.addAndGet(mx.getCurrentThreadCpuTime() - cpuStart);
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
        long cpu = os.getProcessCpuTime() - cpuBefore;
        // the workers have ended: their own bytes are counted from inside them
        long everywhere = allThreads(mx) - everywhereBefore + allocated.get();
        if (!errors.isEmpty()) {
            throw new IllegalStateException("a question failed", errors.get(0));
        }
        long questions = Math.max(1, done.get());
        return new double[] {done.get() / (elapsed / 1e9), (double) allocated.get() / questions,
            (double) everywhere / questions, cpu / 1e3 / questions, askingNanos.get() / 1e3 / questions};
    }

    /**
     * Bytes allocated so far by the threads alive now and by the round's workers (counted when they end):
     * the agent's pool threads (candidates read and run side by side, case delivery) included. A thread that
     * ended during the round is missed, so the figure is a floor.
     */
    private static long allThreads(com.sun.management.ThreadMXBean mx) {
        long sum = 0;
        for (long id : mx.getAllThreadIds()) {
            long b = mx.getThreadAllocatedBytes(id);
            sum += Math.max(0, b);
        }
        return sum;
    }

    private static double pct(double[] xs, int p) {
        double[] copy = xs.clone();
        Arrays.sort(copy);
        return copy[Math.min(copy.length - 1, copy.length * p / 100)];
    }
}
