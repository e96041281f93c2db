package dev.sqlagent.trinocluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Trino cluster for tests: Trino's own {@code DistributedQueryRunner} (one coordinator and
 * {@link #WORKERS} workers, each a full server talking HTTP to the others), with the {@code memory} catalog
 * (writable, for loading test data) and the {@code tpch} catalog (generated data at any scale, no download).
 *
 * <p>Trino 483 needs Java 25, the library stays on 17: the cluster runs in a child JVM started from the JDK
 * named by the {@code SQLAGENT_TRINO_JAVA_HOME} environment variable (or system property
 * {@code sqlagent.trino.javaHome}), else the first {@code /usr/lib/jvm/temurin-2[5-9]*} found. Its class path
 * was written at build time ({@code classpath.txt} beside this class). Start-up takes 5 to 30 seconds on two
 * cores, so {@link #shared()} starts one cluster per test JVM; it stops when the JVM ends (the child reads
 * its standard input and exits when that pipe closes, so it never outlives a killed parent).
 *
 * <p>The child's log goes to {@code target/trino-cluster-<pid>.log}.
 */
public final class TrinoCluster implements AutoCloseable {

    /** Workers beside the coordinator. */
    public static final int WORKERS = 1;
    /** How long start-up may take before the cluster is declared broken. */
    public static final Duration START_TIMEOUT = Duration.ofMinutes(4);

    private static TrinoCluster shared;
    private static RuntimeException sharedFailure;

    private final Process process;
    private final OutputStream keepAlive;
    private final URI baseUri;
    private final Path log;

    private TrinoCluster(Process process, URI baseUri, Path log) {
        this.process = process;
        this.keepAlive = process.getOutputStream();
        this.baseUri = baseUri;
        this.log = log;
    }

    /**
     * The JDK that runs the cluster, if this machine has one.
     *
     * @return its home, or empty when none is configured or found
     */
    public static Optional<Path> javaHome() {
        String configured = System.getProperty("sqlagent.trino.javaHome", System.getenv("SQLAGENT_TRINO_JAVA_HOME"));
        if (configured != null && !configured.isBlank()) {
            Path home = Path.of(configured);
            return Files.isExecutable(home.resolve("bin/java")) ? Optional.of(home) : Optional.empty();
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(jvms)) {
            return s.filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).matches("temurin-(2[5-9]|[3-9]\\d).*"))
                    .filter(p -> Files.isExecutable(p.resolve("bin/java")))
                    .sorted()
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The cluster of this JVM, started on first use.
     *
     * @return the running cluster
     * @throws IllegalStateException when no JDK 25 is found, or the cluster did not start (the message has the
     *     end of its log); the same failure is thrown again on later calls instead of a second start
     */
    public static synchronized TrinoCluster shared() {
        if (sharedFailure != null) {
            throw sharedFailure;
        }
        if (shared == null) {
            try {
                shared = start(WORKERS);
            } catch (RuntimeException e) {
                sharedFailure = e;
                throw e;
            }
            TrinoCluster c = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(c::close, "trino-cluster-stop"));
        }
        return shared;
    }

    /**
     * Starts a cluster of its own (prefer {@link #shared()}).
     *
     * @param workers workers beside the coordinator, at least 1
     * @return the running cluster; close it
     */
    public static TrinoCluster start(int workers) {
        return start(workers, null);
    }

    /**
     * Starts a cluster of its own whose coordinator enforces Trino's file-based access control
     * ({@code security.config-file}) with the rules in a file, read once at start-up.
     *
     * @param workers workers beside the coordinator, at least 1
     * @param accessControlRules the rules' JSON file, or null for the allow-all default of {@link #start(int)}
     * @return the running cluster; close it
     */
    public static TrinoCluster start(int workers, Path accessControlRules) {
        if (workers < 1) {
            throw new IllegalArgumentException("a cluster needs at least one worker, got " + workers);
        }
        Path home = javaHome().orElseThrow(() -> new IllegalStateException("no JDK 25 or later for the Trino cluster: "
                + "set SQLAGENT_TRINO_JAVA_HOME to one (Trino 483 needs Java 25; the library itself stays on 17)"));
        try {
            Path dir = Files.createTempDirectory("sqlagent-trino-");
            Path main = dir.resolve("TrinoClusterMain.java");
            Files.writeString(main, resource("TrinoClusterMain.java.txt"), StandardCharsets.UTF_8);
            Path argFile = dir.resolve("classpath.args");
            Files.writeString(argFile, "-cp \"" + resource("classpath.txt").strip() + "\"\n", StandardCharsets.UTF_8);
            Path ready = dir.resolve("ready");
            Path target = Path.of("target");
            Path log = (Files.isDirectory(target) ? target : dir)
                    .resolve("trino-cluster-" + ProcessHandle.current().pid() + ".log");
            List<String> command = new ArrayList<>(List.of(home.resolve("bin/java").toString(),
                    "--add-modules", "jdk.incubator.vector", "-Xmx3g", "-XX:+UseG1GC",
                    "-Djava.io.tmpdir=" + dir, "-Dfile.encoding=UTF-8", "-Duser.timezone=UTC",
                    "@" + argFile, main.toString(), Integer.toString(workers), ready.toString()));
            if (accessControlRules != null) {
                command.add(accessControlRules.toAbsolutePath().toString());
            }
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            while (!Files.exists(ready)) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("the Trino cluster exited with " + p.exitValue()
                            + " during start-up; the end of its log " + log + ":\n" + tail(log));
                }
                if (System.nanoTime() > deadline) {
                    p.destroyForcibly();
                    throw new IllegalStateException("the Trino cluster did not start within " + START_TIMEOUT
                            + "; the end of its log " + log + ":\n" + tail(log));
                }
                // polls a file the child writes when it is ready: a bounded wait on a state, not a fixed sleep
                p.waitFor(200, TimeUnit.MILLISECONDS);
            }
            return new TrinoCluster(p, URI.create(Files.readString(ready, StandardCharsets.UTF_8).strip()), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the Trino cluster", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the Trino cluster started", e);
        }
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = TrinoCluster.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing resource " + name + " beside " + TrinoCluster.class.getName()
                        + " (classpath.txt is written by the module's build)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /**
     * The coordinator's HTTP address.
     *
     * @return e.g. {@code http://127.0.0.1:41234}
     */
    public URI baseUri() {
        return baseUri;
    }

    /**
     * A JDBC URL for the Trino driver.
     *
     * @param catalog the session's catalog, e.g. {@code memory} or {@code tpch}
     * @param schema the session's schema, e.g. {@code default} or {@code tiny}
     * @return {@code jdbc:trino://host:port/catalog/schema}
     */
    public String jdbcUrl(String catalog, String schema) {
        return "jdbc:trino://" + baseUri.getHost() + ":" + baseUri.getPort() + "/" + catalog + "/" + schema;
    }

    /**
     * Where the child JVM logs.
     *
     * @return the log file
     */
    public Path log() {
        return log;
    }

    /** Stops the cluster: closes the child's standard input, then waits a bounded time before killing it. */
    @Override
    public void close() {
        try {
            keepAlive.close();
        } catch (IOException e) {
            // the child is gone already
        }
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
