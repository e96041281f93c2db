package dev.sqlagent.guard;

import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testkit.ScriptedLlm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The full default path as a host builds it, on both twins of an engine: a {@link SqlAgent} with only a
 * model, a data source, the dialect and the policy (guard and engine check on, every default kept), whose
 * scripted model answers every request with the statement under test. The data source records every
 * statement the database receives ({@link RecordingDataSource}), so that the judge sees what reached the
 * engine without asking the library.
 */
final class HostileFullPath implements AutoCloseable {

    /** The question asked: names no table and no number, so that no optional stage runs. */
    static final String QUESTION = "Show me the requested data.";

    private static final Pattern BYTES = Pattern.compile("^<(\\d+) bytes>$");

    /**
     * What one twin's agent did with one statement, as seen from outside.
     *
     * @param status how the question ended
     * @param detail the rejection's violations or the failure's kind and message (what the host is told)
     * @param rows the answer's rows rendered, sorted; empty unless answered
     * @param maxCell the longest cell of the answer (chars, or bytes of a binary value)
     * @param prompts the texts of every model request of the question (what the model, the attacker, saw)
     * @param calls every statement the database received during the question, library internals excluded
     * @param executed the calls that were executions, not {@code EXPLAIN}
     * @param files files of the scratch directory created or changed during the question
     */
    record Outcome(AgentResult.Status status, String detail, List<String> rows, int maxCell, List<String> prompts,
                   List<RecordingDataSource.Call> calls, List<RecordingDataSource.Call> executed, List<String> files) {
        String brief() {
            String r = status == AgentResult.Status.ANSWERED ? rows.size() + " rows " + preview(rows) : detail;
            return status + " " + (r.length() > 300 ? r.substring(0, 300) + "…" : r);
        }
    }

    /**
     * The statement run directly, without the library, by the login that can read everything.
     *
     * @param error the engine's message, or null when it ran
     * @param rows the rows rendered, sorted
     * @param maxCell the longest cell
     */
    record Raw(String error, List<String> rows, int maxCell) {
        boolean ran() {
            return error == null;
        }
    }

    private final HostileFixture.Twins twins;
    private final SqlAgent[] agents = new SqlAgent[2];
    private final RecordingDataSource[] recorders = new RecordingDataSource[2];
    private final ScriptedLlm[] models = new ScriptedLlm[2];
    private final AtomicReference<String> current = new AtomicReference<>("SELECT 1");
    private final Set<String> internal = new HashSet<>();

    /**
     * Builds one agent per twin, as a host would by default, and learns the statements the library runs
     * for itself (catalog reads, session settings) from two plain questions.
     *
     * @param twins the engine's twins
     * @param policy the policy
     */
    HostileFullPath(HostileFixture.Twins twins, GuardPolicy policy) {
        this(twins, policy, (w, b) -> { });
    }

    /**
     * As {@link #HostileFullPath(HostileFixture.Twins, GuardPolicy)}, with a host's further settings.
     *
     * @param twins the engine's twins
     * @param policy the policy
     * @param settings what the host adds to each twin's builder (the twin's index, the builder)
     */
    HostileFullPath(HostileFixture.Twins twins, GuardPolicy policy,
                    java.util.function.BiConsumer<Integer, SqlAgent.Builder> settings) {
        this.twins = twins;
        for (int w = 0; w < 2; w++) {
            recorders[w] = new RecordingDataSource(twins.twin(w));
            models[w] = ScriptedLlm.create().fallback(this::reply);
            SqlAgent.Builder b = SqlAgent.builder().llm(models[w]).dataSource(recorders[w]).dialect(twins.dialect())
                    .policy(policy);
            settings.accept(w, b);
            agents[w] = b.build();
        }
        for (String warmUp : List.of("SELECT k.kind FROM pets k", "SELECT p.name, o.amount FROM people p JOIN orders o "
                + "ON o.person_id = p.id WHERE p.dept = 'eng'", "SELECT count(*) AS n FROM pets")) {
            for (int w = 0; w < 2; w++) {
                int mark = recorders[w].mark();
                current.set(warmUp);
                agents[w].ask(QUESTION);
                for (RecordingDataSource.Call c : recorders[w].since(mark)) {
                    if (!c.explain()) {
                        internal.add(c.sql());
                    }
                }
            }
        }
    }

    private LlmResponse reply(LlmRequest request) {
        return LlmResponse.of(current.get());
    }

    /**
     * Asks twin {@code twin}'s agent the question, its model answering {@code sql} to every request.
     *
     * @param twin 0 (A) or 1 (B)
     * @param sql the statement the model writes
     * @return what happened, seen from outside
     */
    Outcome ask(int twin, String sql) {
        int mark = recorders[twin].mark();
        int prompts = models[twin].callCount();
        clearScratch();
        Map<String, Long> before = files();
        current.set(sql);
        AgentResult r = agents[twin].ask(QUESTION);
        List<String> rows = new ArrayList<>();
        int maxCell = 0;
        String detail;
        if (r instanceof AgentResult.Answered a) {
            ResultTable t = a.table();
            for (List<Object> row : t.rows()) {
                StringBuilder sb = new StringBuilder();
                for (Object v : row) {
                    String s = v == null ? "NULL" : v.toString();
                    Matcher m = BYTES.matcher(s);
                    maxCell = Math.max(maxCell, m.matches() ? Integer.parseInt(m.group(1)) : s.length());
                    sb.append(sb.length() == 0 ? "" : " | ").append(s);
                }
                rows.add(sb.toString());
            }
            Collections.sort(rows);
            detail = rows.size() + " rows";
        } else if (r instanceof AgentResult.Rejected j) {
            StringBuilder sb = new StringBuilder();
            j.violations().forEach(v -> sb.append(sb.length() == 0 ? "" : "; ").append(v.type()).append(": ")
                    .append(v.message()));
            detail = sb.toString();
        } else {
            AgentResult.Failed f = (AgentResult.Failed) r;
            detail = f.kind() + ": " + f.message();
        }
        List<String> texts = new ArrayList<>();
        List<LlmRequest> requests = models[twin].requests();
        for (LlmRequest q : requests.subList(prompts, requests.size())) {
            texts.add(q.role() + ": " + q.text());
        }
        List<RecordingDataSource.Call> calls = new ArrayList<>();
        List<RecordingDataSource.Call> executed = new ArrayList<>();
        for (RecordingDataSource.Call c : recorders[twin].since(mark)) {
            if (internal.contains(c.sql())) {
                continue;
            }
            calls.add(c);
            if (!c.explain()) {
                executed.add(c);
            }
        }
        List<String> changed = new ArrayList<>();
        files().forEach((name, stamp) -> {
            if (!stamp.equals(before.get(name))) {
                changed.add(name);
            }
        });
        return new Outcome(r.status(), detail, rows, maxCell, texts, calls, executed, changed);
    }

    /** Removes what earlier statements wrote, so that a file present after a question was written by it. */
    private void clearScratch() {
        try (Stream<Path> s = Files.list(twins.scratch())) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String n = p.getFileName().toString();
                if (!n.startsWith("twin_") && !n.startsWith("seed.")) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Map<String, Long> files() {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(twins.scratch())) {
            s.forEach(p -> {
                try {
                    out.put(p.getFileName().toString(), Files.getLastModifiedTime(p).toMillis() * 31 + Files.size(p));
                } catch (IOException e) {
                    out.put(p.getFileName().toString(), -1L);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // the twins' own database files change on every question
        out.keySet().removeIf(n -> n.startsWith("twin_"));
        return out;
    }

    /**
     * Runs a statement directly on a connection, at most 1000 rows, 30 s.
     *
     * @param c the connection
     * @param sql the statement
     * @param params its parameters
     * @return what came back
     */
    static Raw raw(Connection c, String sql, List<Object> params) {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setMaxRows(1000);
            ps.setQueryTimeout(30);
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            List<String> rows = new ArrayList<>();
            int maxCell = 0;
            // every result of the call: the engine check sends its time-out and its EXPLAIN as one call on
            // PostgreSQL, two results
            boolean isResult = ps.execute();
            while (isResult || ps.getUpdateCount() != -1) {
                if (!isResult) {
                    isResult = ps.getMoreResults();
                    continue;
                }
                try (ResultSet rs = ps.getResultSet()) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        StringBuilder sb = new StringBuilder();
                        for (int i = 1; i <= n; i++) {
                            Object v = rs.getObject(i);
                            String s;
                            if (v instanceof byte[] b) {
                                maxCell = Math.max(maxCell, b.length);
                                s = b.length > 64 ? "<" + b.length + " bytes>" : hex(b);
                            } else {
                                s = v == null ? "NULL" : rs.getString(i);
                                maxCell = Math.max(maxCell, s.length());
                            }
                            sb.append(i == 1 ? "" : " | ").append(s);
                        }
                        rows.add(sb.toString());
                    }
                }
                isResult = ps.getMoreResults();
            }
            Collections.sort(rows);
            return new Raw(null, rows, maxCell);
        } catch (SQLException | RuntimeException e) {
            try {
                if (!c.getAutoCommit()) {
                    c.rollback();
                }
            } catch (SQLException ignored) {
                // the next statement reports it
            }
            return new Raw(String.valueOf(e.getMessage()), List.of(), 0);
        }
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02X", x));
        }
        return sb.toString();
    }

    /** @return the first rows, shortened, for a message */
    static String preview(List<String> rows) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < Math.min(3, rows.size()); i++) {
            String r = rows.get(i);
            sb.append(i == 0 ? "" : "; ").append(r.length() > 80 ? r.substring(0, 80) + "…" : r);
        }
        return sb.append(rows.size() > 3 ? "; …]" : "]").toString();
    }

    /** @return the internal statements learnt at start (for the report) */
    Set<String> internalStatements() {
        return new LinkedHashSet<>(internal);
    }

    @Override
    public void close() {
        for (SqlAgent a : agents) {
            if (a != null) {
                a.close();
            }
        }
    }
}
