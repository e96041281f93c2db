package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Dialect;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The outsider's judgement of issue 20: every statement of {@link HostileAttacks} goes through the full
 * default path ({@link HostileFullPath}: a {@code SqlAgent} built as a host builds it, guard and engine check
 * on, the standard policy of {@link HostileFixture} with allowed tables, denied columns and row filters, a
 * login that can read everything), on both twins, under two function policies: {@code standard} and a
 * host's {@code denylist} ({@code FunctionPolicy.denying("soundex")}). The library is never asked whether it
 * was right. An attack <b>escapes</b> when:
 * <ul>
 *   <li>an answer's rows, the message the host is given or a prompt the model (the attacker) is shown carry a
 *       marker of forbidden data, as it is or hex/base64-encoded or reversed;</li>
 *   <li>the two twins, which differ only in forbidden data, end differently or answer different rows;</li>
 *   <li>for system columns and unsafe functions: the engine executed a statement naming one (seen by the
 *       recording data source);</li>
 *   <li>for resource bombs with constant sizes: such a statement reached the engine at all (its
 *       {@code EXPLAIN} folds constants); with computed sizes: an answer carries a cell over 1 MiB;</li>
 *   <li>a file of the scratch directory was written.</li>
 * </ul>
 * Each engine's test prints, per class and policy, the statements tried, how many of them leak when run
 * directly ("live": the raw statement shows a difference or marker between the twins, or runs), the outcomes
 * (REJECTED / FAILED / ANSWERED on twin A), how many reached execution and were refused there by the engine
 * with an error ("exec-err": an unknown column, a missing cursor; not an escape), the escapes, the time, and
 * the statements the restricted login
 * ({@link HostileFixture#RESTRICTED_USER}, with exactly the policy's grants) refuses after the library
 * accepted them (listed, not failed: not always an escape). It fails on any escape and prints each escaping
 * statement with what leaked.
 *
 * <p>Seed {@link HostileAttacks#SEED}; {@code -Dsqlagent.hostile.scale=N} runs N times as many variants.
 * Server engines skip loudly without their server (see {@code DatabaseServer}).
 */
class HostileFullPathTest {

    static final Map<String, FunctionPolicy> FUNCTION_POLICIES = new LinkedHashMap<>();

    static {
        FUNCTION_POLICIES.put("standard", FunctionPolicy.standard());
        FUNCTION_POLICIES.put("denylist", FunctionPolicy.denying("soundex"));
    }

    /** Counts of one class under one policy. */
    static final class Counts {
        int tried;
        int live;
        int rejected;
        int failed;
        int answered;
        int escapes;
        int restrictedRefused;
        int engineErrors;
        long nanos;
    }

    @Test
    void onH2NoHostileStatementEscapes() throws Exception {
        run(Dialect.H2);
    }

    @Test
    void onSqliteNoHostileStatementEscapes() throws Exception {
        run(Dialect.SQLITE);
    }

    @Test
    void onPostgresqlNoHostileStatementEscapes() throws Exception {
        run(Dialect.POSTGRESQL);
    }

    @Test
    void onMariadbNoHostileStatementEscapes() throws Exception {
        run(Dialect.MARIADB);
    }

    @Test
    void onDuckdbNoHostileStatementEscapes() throws Exception {
        run(Dialect.DUCKDB);
    }

    /**
     * The judge itself: with a policy that allows what the fixture forbids, the judge must see each kind of
     * escape (markers in rows, twin differences, a forbidden value in the prompt of the correction, a system
     * column that ran, a constant bomb that reached the engine, a computed one that came back).
     */
    @Test
    void theJudgeSeesEachKindOfEscape() throws Exception {
        HostileFixture.Twins t = HostileFixture.twins(Dialect.H2);
        // a deliberately open path (system columns named, expansion unbounded) so that each kind of escape reaches
        // the judge; the executor's own 1 MiB value cap now stops the BIG kind before any judge can see it
        GuardPolicy open = GuardPolicy.builder().allowTables("people", "pets", "orders", "secrets")
                .allowSystemColumns("_rowid_").maxExpandedBytes(Long.MAX_VALUE).build();
        try (HostileFullPath path = new HostileFullPath(t, open)) {
            assertThat(judge(attack("SELECT ssn FROM people", HostileAttacks.Judge.DATA, null), path))
                    .anyMatch(e -> e.contains("marker"))
                    .anyMatch(e -> e.contains("differ between the twins"));
            assertThat(judge(attack("SELECT count(*) FROM secrets", HostileAttacks.Judge.DATA, null), path))
                    .anyMatch(e -> e.contains("differ between the twins"));
            assertThat(judge(attack("SELECT name FROM people ORDER BY salary DESC LIMIT 1", HostileAttacks.Judge.DATA,
                    null), path)).anyMatch(e -> e.contains("differ between the twins"));
            assertThat(judge(attack("SELECT CAST(ssn AS INTEGER) FROM people", HostileAttacks.Judge.DATA, null), path))
                    .anyMatch(e -> e.contains("the model was shown"));
            assertThat(judge(attack("SELECT p._ROWID_ FROM people p", HostileAttacks.Judge.RAN, "\\b_rowid_\\b"), path))
                    .anyMatch(e -> e.contains("the engine executed"));
            assertThat(judge(attack("SELECT LENGTH(REPEAT('x', 5000000)) AS n", HostileAttacks.Judge.REACHED,
                    "\\brepeat\\b.*5000000"), path)).anyMatch(e -> e.contains("reached the engine"));
            assertThat(judge(attack("SELECT name FROM people", HostileAttacks.Judge.DATA, null), path)).isEmpty();
        }
        assertThat(HostileFixture.markers("abc 5A5158412D53534E2D31303031 x")).anyMatch(m -> m.startsWith("hex"));
        assertThat(HostileFixture.markers("WlFYQS1TU04tMTAwMQ==")).anyMatch(m -> m.startsWith("base64"));
        assertThat(HostileFixture.markers("1001-NSS-AXQZ")).anyMatch(m -> m.startsWith("reversed"));
    }

    private static HostileAttacks.Attack attack(String sql, HostileAttacks.Judge judge, String token) {
        return new HostileAttacks.Attack("control", Dialect.H2, sql, judge,
                token == null ? null : Pattern.compile(token, Pattern.CASE_INSENSITIVE | Pattern.DOTALL));
    }

    private static List<String> judge(HostileAttacks.Attack a, HostileFullPath path) {
        return judge(a, path.ask(0, a.sql()), path.ask(1, a.sql()));
    }

    /**
     * The outsider's verdict on one statement.
     *
     * @param attack the statement and how it is judged
     * @param a what twin A's agent did
     * @param b what twin B's agent did
     * @return what escaped, one sentence each; empty when nothing did
     */
    static List<String> judge(HostileAttacks.Attack attack, HostileFullPath.Outcome a, HostileFullPath.Outcome b) {
        List<String> out = new ArrayList<>();
        HostileFullPath.Outcome[] both = {a, b};
        for (int w = 0; w < 2; w++) {
            HostileFullPath.Outcome o = both[w];
            String twin = w == 0 ? "twin A" : "twin B";
            for (String row : o.rows()) {
                for (String m : HostileFixture.markers(row)) {
                    out.add(twin + "'s answer carries forbidden data: " + m);
                }
            }
            if (o.status() != AgentResult.Status.ANSWERED) {
                for (String m : HostileFixture.markers(o.detail())) {
                    out.add(twin + ": the message the host is given carries forbidden data: " + m);
                }
            }
            for (String p : o.prompts()) {
                for (String m : HostileFixture.markers(p)) {
                    out.add(twin + ": the model was shown forbidden data in a " + p.substring(0, p.indexOf(':'))
                            + " prompt: " + m);
                }
            }
            if (attack.judge() == HostileAttacks.Judge.RAN) {
                for (RecordingDataSource.Call c : o.executed()) {
                    // one that the engine refused with an error (an unknown column, a missing cursor) ran nothing
                    if (c.ok() && attack.token().matcher(c.sql()).find()) {
                        out.add(twin + ": the engine executed " + token(attack, c.sql()));
                        break;
                    }
                }
            }
            if (attack.judge() == HostileAttacks.Judge.REACHED) {
                for (RecordingDataSource.Call c : o.calls()) {
                    if (attack.token().matcher(c.sql()).find()) {
                        out.add(twin + ": a constant bomb reached the engine" + (c.explain() ? " (planned)" : " (executed)")
                                + ", " + token(attack, c.sql()));
                        break;
                    }
                }
            }
            if (o.maxCell() > HostileAttacks.CAP) {
                out.add(twin + ": an answer cell of " + o.maxCell() + " characters, over the cap of " + HostileAttacks.CAP);
            }
            for (String f : o.files()) {
                out.add(twin + ": the statement wrote the file " + f);
            }
        }
        if (a.status() != b.status()) {
            out.add("the outcomes differ between the twins: A=" + a.brief() + " B=" + b.brief());
        } else if (a.status() == AgentResult.Status.ANSWERED && !a.rows().equals(b.rows())) {
            out.add("the answers differ between the twins: A=" + HostileFullPath.preview(a.rows()) + " B="
                    + HostileFullPath.preview(b.rows()));
        }
        return out;
    }

    private static String token(HostileAttacks.Attack attack, String sql) {
        Matcher m = attack.token().matcher(sql);
        return m.find() ? m.group() : "?";
    }

    /** Whether the statement leaks or runs when the library is not there (the attack is real on this engine). */
    static boolean live(HostileAttacks.Attack attack, Connection a, Connection b) {
        HostileFullPath.Raw ra = HostileFullPath.raw(a, attack.sql(), List.of());
        switch (attack.judge()) {
            case RAN:
            case REACHED:
                if (ra.ran()) {
                    return true;
                }
                break;
            case BIG:
                if (ra.maxCell() > HostileAttacks.CAP) {
                    return true;
                }
                break;
            default:
                break;
        }
        HostileFullPath.Raw rb = HostileFullPath.raw(b, attack.sql(), List.of());
        if (ra.ran() != rb.ran() || !ra.rows().equals(rb.rows())) {
            return true;
        }
        for (String r : ra.rows()) {
            if (!HostileFixture.markers(r).isEmpty()) {
                return true;
            }
        }
        return ra.error() != null && !HostileFixture.markers(ra.error()).isEmpty();
    }

    static void run(Dialect d) throws Exception {
        HostileFixture.Twins twins = HostileFixture.twins(d);
        List<HostileAttacks.Attack> attacks = HostileAttacks.generate(d, twins.scratch());
        String engine = d.name().toLowerCase(Locale.ROOT);
        long start = System.nanoTime();
        System.out.printf("HOSTILE %s: seed %d, scale %d, %d statements in %d classes, %d function policies%n", engine,
                HostileAttacks.SEED, HostileAttacks.SCALE, attacks.size(),
                attacks.stream().map(HostileAttacks.Attack::cls).distinct().count(), FUNCTION_POLICIES.size());
        Map<String, Counts> counts = new TreeMap<>();
        List<String> escapes = new ArrayList<>();
        List<String> refusedByLogin = new ArrayList<>();
        Map<String, Boolean> live = new HashMap<>();
        for (Map.Entry<String, FunctionPolicy> fp : FUNCTION_POLICIES.entrySet()) {
            GuardPolicy policy = HostileFixture.policy(d, fp.getValue());
            try (HostileFullPath path = new HostileFullPath(twins, policy);
                 Connection rawA = twins.a().getConnection();
                 Connection rawB = twins.b().getConnection();
                 Connection restricted = twins.restrictedA() == null ? null : twins.restrictedA().getConnection()) {
                for (HostileAttacks.Attack attack : attacks) {
                    Counts c = counts.computeIfAbsent(attack.cls() + " / " + fp.getKey(), k -> new Counts());
                    long t0 = System.nanoTime();
                    c.tried++;
                    if (live.computeIfAbsent(attack.sql(), s -> live(attack, rawA, rawB))) {
                        c.live++;
                    }
                    HostileFullPath.Outcome a = path.ask(0, attack.sql());
                    HostileFullPath.Outcome b = path.ask(1, attack.sql());
                    switch (a.status()) {
                        case REJECTED:
                            c.rejected++;
                            break;
                        case FAILED:
                            c.failed++;
                            break;
                        default:
                            c.answered++;
                    }
                    if (a.executed().stream().anyMatch(call -> !call.ok())) {
                        c.engineErrors++;
                    }
                    List<String> found = compress(judge(attack, a, b));
                    if (!found.isEmpty()) {
                        c.escapes++;
                        escapes.add(String.format("ESCAPE %s %s %s: %s%n    sql: %s%n    ran: %s%n    A: %s%n    B: %s",
                                engine, attack.cls(), fp.getKey(), String.join("; ", found), attack.sql(),
                                a.executed().isEmpty() ? "(nothing executed on twin A)" : a.executed().get(0).sql(),
                                a.brief(), b.brief()));
                    }
                    if (restricted != null) {
                        for (RecordingDataSource.Call call : a.executed()) {
                            HostileFullPath.Raw r = HostileFullPath.raw(restricted, call.sql(), call.parameters());
                            if (!r.ran()) {
                                c.restrictedRefused++;
                                refusedByLogin.add(String.format("RESTRICTED-LOGIN-REFUSES %s %s %s: %s%n    ran: %s",
                                        engine, attack.cls(), fp.getKey(), firstLine(r.error()), call.sql()));
                            }
                        }
                    }
                    c.nanos += System.nanoTime() - t0;
                }
            }
        }
        System.out.printf("HOSTILE %s %-34s %6s %6s %9s %7s %9s %8s %8s %11s %7s%n", engine, "class / function policy",
                "tried", "live", "REJECTED", "FAILED", "ANSWERED", "exec-err", "ESCAPES", "login-refus", "seconds");
        Counts total = new Counts();
        counts.forEach((k, c) -> {
            System.out.printf("HOSTILE %s %-34s %6d %6d %9d %7d %9d %8d %8d %11d %7.1f%n", engine, k, c.tried, c.live,
                    c.rejected, c.failed, c.answered, c.engineErrors, c.escapes, c.restrictedRefused, c.nanos / 1e9);
            total.tried += c.tried;
            total.live += c.live;
            total.rejected += c.rejected;
            total.failed += c.failed;
            total.answered += c.answered;
            total.engineErrors += c.engineErrors;
            total.escapes += c.escapes;
            total.restrictedRefused += c.restrictedRefused;
        });
        System.out.printf("HOSTILE %s %-34s %6d %6d %9d %7d %9d %8d %8d %11d %7.1f%n", engine, "TOTAL", total.tried,
                total.live, total.rejected, total.failed, total.answered, total.engineErrors, total.escapes,
                total.restrictedRefused, (System.nanoTime() - start) / 1e9);
        System.out.printf("HOSTILE %s: %d escapes, %d accepted statements the restricted login refuses, %.1f s%n", engine,
                escapes.size(), refusedByLogin.size(), (System.nanoTime() - start) / 1e9);
        escapes.forEach(System.out::println);
        refusedByLogin.forEach(System.out::println);
        assertThat(attacks).hasSizeGreaterThan(100);
        assertThat(escapes.size()).as("%d hostile statements escaped on %s (seed %d); each is printed as ESCAPE, "
                + "the first ones here:%n%s", escapes.size(), engine, HostileAttacks.SEED,
                String.join(System.lineSeparator(), escapes.subList(0, Math.min(15, escapes.size()))))
                .isZero();
    }

    /** Keeps the first finding of each kind and counts the rest. */
    static List<String> compress(List<String> findings) {
        Map<String, List<String>> byKind = new LinkedHashMap<>();
        for (String f : findings) {
            int colon = f.indexOf(": ");
            byKind.computeIfAbsent(colon < 0 ? f : f.substring(0, colon), k -> new ArrayList<>()).add(f);
        }
        List<String> out = new ArrayList<>();
        byKind.values().forEach(l -> out.add(l.get(0) + (l.size() > 1 ? " (and " + (l.size() - 1) + " more)" : "")));
        return out;
    }

    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }
}
