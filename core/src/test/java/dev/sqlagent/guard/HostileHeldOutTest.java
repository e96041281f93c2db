package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A held-out hostile round: hand-written attack statements, never produced by {@link HostileAttacks}'s
 * generator, in {@code core/src/test/resources/hostile-heldout/common.sql} (every engine) and
 * {@code <engine>.sql}, each run through the full default path ({@link HostileFullPath}) on both twins of
 * {@link HostileFixture} and judged by {@link HostileFullPathTest#judge}: markers in answers, messages and
 * prompts, twins that differ, an unsafe function or system column the engine executed, a constant bomb that
 * reached it, an answer cell over 1 MiB, a file written.
 *
 * <p>The file format: statements separated by blank lines; {@code --} lines are comments, except a line
 * {@code --@ RAN <regex>}, {@code --@ REACHED <regex>} or {@code --@ BIG} which sets how the next statement is
 * judged (DATA otherwise), and {@code --@ class <name>} which sets the class of the statements that follow.
 *
 * <p>Each engine prints tried / REJECTED / FAILED / ANSWERED / live (the raw statement leaks or runs without
 * the library) / ESCAPES, and every escape with the judge's evidence; it fails on any escape. Server engines
 * skip loudly without their server (see {@code DatabaseServer}).
 */
class HostileHeldOutTest {

    @Test
    void onH2NoHeldOutStatementEscapes() throws Exception {
        run(Dialect.H2);
    }

    @Test
    void onSqliteNoHeldOutStatementEscapes() throws Exception {
        run(Dialect.SQLITE);
    }

    @Test
    void onPostgresqlNoHeldOutStatementEscapes() throws Exception {
        run(Dialect.POSTGRESQL);
    }

    @Test
    void onMariadbNoHeldOutStatementEscapes() throws Exception {
        run(Dialect.MARIADB);
    }

    @Test
    void onDuckdbNoHeldOutStatementEscapes() throws Exception {
        run(Dialect.DUCKDB);
    }

    /**
     * Reads an engine's held-out statements.
     *
     * @param d the engine
     * @return the attacks, in file order
     */
    static List<HostileAttacks.Attack> attacks(Dialect d) {
        return attacks("/hostile-heldout/", d);
    }

    /**
     * @param dir the resource directory of the round ({@code common.sql} and {@code <engine>.sql})
     * @param d the engine
     * @return the attacks, in file order
     */
    static List<HostileAttacks.Attack> attacks(String dir, Dialect d) {
        String text = read(dir + "common.sql") + "\n\n" + read(dir + d.name().toLowerCase(Locale.ROOT) + ".sql");
        List<HostileAttacks.Attack> out = new ArrayList<>();
        String cls = "heldout";
        HostileAttacks.Judge judge = HostileAttacks.Judge.DATA;
        Pattern token = null;
        StringBuilder block = new StringBuilder();
        for (String line : (text + "\n\n").split("\n", -1)) {
            String s = line.strip();
            if (s.startsWith("--@ class ")) {
                cls = s.substring("--@ class ".length()).strip();
                continue;
            }
            if (s.startsWith("--@ ")) {
                String[] parts = s.substring(4).strip().split("\\s+", 2);
                judge = HostileAttacks.Judge.valueOf(parts[0]);
                token = parts.length > 1 ? Pattern.compile(parts[1], Pattern.CASE_INSENSITIVE | Pattern.DOTALL) : null;
                continue;
            }
            if (s.startsWith("--")) {
                continue;
            }
            if (s.isEmpty()) {
                if (block.length() > 0) {
                    out.add(new HostileAttacks.Attack(cls, d, block.toString().strip(), judge, token));
                    block.setLength(0);
                    judge = HostileAttacks.Judge.DATA;
                    token = null;
                }
            } else {
                block.append(line).append('\n');
            }
        }
        return out;
    }

    private static String read(String resource) {
        try (var in = HostileHeldOutTest.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("missing " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void run(Dialect d) throws Exception {
        run("/hostile-heldout/", d, 40);
    }

    /**
     * Runs a held-out round on one engine and fails on any escape.
     *
     * @param dir the round's resource directory
     * @param d the engine
     * @param atLeast the fewest statements the round must have on the engine
     * @throws Exception if a twin cannot be built
     */
    static void run(String dir, Dialect d, int atLeast) throws Exception {
        HostileFixture.Twins twins = HostileFixture.twins(d);
        List<HostileAttacks.Attack> attacks = attacks(dir, d);
        String engine = d.name().toLowerCase(Locale.ROOT);
        GuardPolicy policy = HostileFixture.policy(d, FunctionPolicy.standard());
        int rejected = 0;
        int failed = 0;
        int answered = 0;
        int live = 0;
        List<String> escapes = new ArrayList<>();
        List<String> refusedByLogin = new ArrayList<>();
        boolean verbose = Boolean.getBoolean("sqlagent.heldout.verbose");
        long start = System.nanoTime();
        try (HostileFullPath path = new HostileFullPath(twins, policy);
             Connection rawA = twins.a().getConnection();
             Connection rawB = twins.b().getConnection();
             Connection restricted = twins.restrictedA() == null ? null : twins.restrictedA().getConnection()) {
            for (HostileAttacks.Attack attack : attacks) {
                boolean isLive = HostileFullPathTest.live(attack, rawA, rawB);
                if (isLive) {
                    live++;
                }
                HostileFullPath.Outcome a = path.ask(0, attack.sql());
                HostileFullPath.Outcome b = path.ask(1, attack.sql());
                switch (a.status()) {
                    case REJECTED:
                        rejected++;
                        break;
                    case FAILED:
                        failed++;
                        break;
                    default:
                        answered++;
                }
                if (verbose) {
                    System.out.printf("HELDOUT %s %s %s live=%s: %s%n    %s%n", engine, attack.cls(), a.status(), isLive,
                            attack.sql().replace('\n', ' '), HostileFullPathTest.firstLine(a.brief()));
                }
                List<String> found = HostileFullPathTest.compress(HostileFullPathTest.judge(attack, a, b));
                if (!found.isEmpty()) {
                    escapes.add(String.format("ESCAPE %s %s: %s%n    sql: %s%n    ran: %s%n    A: %s%n    B: %s", engine,
                            attack.cls(), String.join("; ", found), attack.sql().replace('\n', ' '),
                            a.executed().isEmpty() ? "(nothing executed on twin A)" : a.executed().get(0).sql(),
                            a.brief(), b.brief()));
                }
                if (restricted != null) {
                    for (RecordingDataSource.Call call : a.executed()) {
                        HostileFullPath.Raw r = HostileFullPath.raw(restricted, call.sql(), call.parameters());
                        if (!r.ran()) {
                            refusedByLogin.add(String.format("RESTRICTED-LOGIN-REFUSES %s %s: %s%n    ran: %s", engine,
                                    attack.cls(), HostileFullPathTest.firstLine(r.error()), call.sql()));
                        }
                    }
                }
            }
        }
        System.out.printf("HELDOUT %s: tried %d, REJECTED %d, FAILED %d, ANSWERED %d, live %d, ESCAPES %d, "
                        + "restricted login refuses %d, %.1f s%n", engine, attacks.size(), rejected, failed, answered,
                live, escapes.size(), refusedByLogin.size(), (System.nanoTime() - start) / 1e9);
        escapes.forEach(System.out::println);
        refusedByLogin.forEach(System.out::println);
        assertThat(attacks).hasSizeGreaterThanOrEqualTo(atLeast);
        assertThat(escapes).as("%d held-out statements escaped on %s:%n%s", escapes.size(), engine,
                String.join(System.lineSeparator(), escapes)).isEmpty();
    }
}
