package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every payload of {@code ../shared/data/sqli}, raw and URL-decoded, spliced into query templates over
 * Spider databases in which one table is forbidden. Whatever the guard accepts is compiled by SQLite and
 * audited from its bytecode ({@link SqliteReadAudit}): it must open only allowed tables, call only
 * allowed functions, write nothing. No guard call may take longer than the parse cap plus slack.
 */
class SqliPayloadTest {

    record Target(String db, String table, String column, String key, List<String> allowed) {
    }

    /** A guard call this long is a hang: the parse cap (2 s) plus a margin no load reaches. */
    private static final long HANG_NANOS = 60_000_000_000L;

    static final List<Target> TARGETS = List.of(
            new Target("concert_singer", "singer", "Name", "Singer_ID", List.of("singer", "concert", "singer_in_concert")),
            new Target("pets_1", "Student", "LName", "StuID", List.of("Student", "Pets")),
            new Target("world_1", "city", "Name", "ID", List.of("city", "country")));

    static final List<String> TEMPLATES = List.of(
            "SELECT %2$s FROM %1$s WHERE %3$s = 1%4$s",
            "SELECT %2$s FROM %1$s WHERE %2$s = '%4$s'",
            "SELECT %2$s FROM %1$s WHERE %2$s = \"%4$s\"",
            "SELECT %2$s FROM %1$s WHERE %3$s = (%4$s)",
            "SELECT %2$s FROM %1$s ORDER BY %4$s",
            "SELECT %4$s FROM %1$s",
            "%4$s");

    @Test
    void noAcceptedInjectionReadsAForbiddenTableCallsAForbiddenFunctionOrHangs() throws Exception {
        List<String> payloads = payloads();
        SqlGuard guard = SqlGuard.create();
        Set<String> allowedFunctions = new LinkedHashSet<>(FunctionPolicy.standardFunctions(Dialect.SQLITE));
        allowedFunctions.addAll(List.of("like", "glob"));
        List<String> escapes = new ArrayList<>();
        List<String> hangs = new ArrayList<>();
        int checked = 0;
        int accepted = 0;
        int compiled = 0;
        long slowestNanos = 0;
        for (Target target : TARGETS) {
            GuardPolicy policy = GuardPolicy.builder().allowTables(target.allowed()).allowSelectStar(true).build();
            Set<String> allowedTables = new LinkedHashSet<>();
            target.allowed().forEach(t -> allowedTables.add(t.toLowerCase(Locale.ROOT)));
            try (Connection c = DriverManager.getConnection(
                    "jdbc:sqlite:file:" + SpiderData.sqlite(target.db()) + "?mode=ro")) {
                Map<Integer, String> pages = SqliteReadAudit.rootPages(c);
                for (String template : TEMPLATES) {
                    for (String payload : payloads) {
                        String sql = String.format(template, target.table(), target.column(), target.key(), payload);
                        long start = System.nanoTime();
                        GuardVerdict v = guard.check(sql, policy, Dialect.SQLITE);
                        long took = System.nanoTime() - start;
                        slowestNanos = Math.max(slowestNanos, took);
                        checked++;
                        // a hang, not a slow call: far beyond the parse cap, so that load never counts
                        if (took > HANG_NANOS) {
                            hangs.add(took / 1_000_000 + " ms: " + sql);
                        }
                        if (!(v instanceof GuardVerdict.Accepted)) {
                            continue;
                        }
                        accepted++;
                        GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
                        SqliteReadAudit.Audit audit;
                        try {
                            audit = SqliteReadAudit.audit(c, pages, a.statement().sql(), a.statement().parameters());
                        } catch (SQLException sqliteRefuses) {
                            continue;
                        }
                        compiled++;
                        Set<String> badTables = new LinkedHashSet<>(audit.tables());
                        badTables.removeAll(allowedTables);
                        Set<String> badFunctions = new LinkedHashSet<>(audit.functions());
                        badFunctions.removeAll(allowedFunctions);
                        if (!badTables.isEmpty() || !badFunctions.isEmpty() || !audit.forbidden().isEmpty()) {
                            escapes.add(sql + " => " + a.statement().sql() + " tables " + badTables
                                    + " functions " + badFunctions + " opcodes " + audit.forbidden());
                        }
                    }
                }
            }
        }
        System.out.printf("SQLI: %d payloads, %d SQL checked, %d accepted, %d compiled and audited by SQLite, "
                        + "%d escapes, %d hangs, slowest guard call %.1f ms%n", payloads.size(), checked, accepted,
                compiled, escapes.size(), hangs.size(), slowestNanos / 1e6);
        escapes.forEach(e -> System.out.println("ESCAPE " + e));
        assertThat(escapes).isEmpty();
        assertThat(hangs).isEmpty();
        assertThat(compiled).isGreaterThan(0);
    }

    @Test
    void theAuditSeesForbiddenTablesFunctionsAndWritesThatTheGuardWouldRefuse() throws Exception {
        try (Connection c = DriverManager.getConnection(
                "jdbc:sqlite:file:" + SpiderData.sqlite("concert_singer") + "?mode=ro")) {
            Map<Integer, String> pages = SqliteReadAudit.rootPages(c);
            SqliteReadAudit.Audit viaView = SqliteReadAudit.audit(c, pages,
                    "SELECT upper(Name) FROM singer WHERE Singer_ID IN (SELECT Stadium_ID FROM stadium) "
                            + "AND Name LIKE 'a%' AND typeof(1) = 'x' AND unicode('a') > 0", List.of());
            assertThat(viaView.tables()).contains("singer", "stadium");
            assertThat(viaView.functions()).contains("upper", "like", "typeof", "unicode");
            SqliteReadAudit.Audit schema = SqliteReadAudit.audit(c, pages, "SELECT name FROM sqlite_master", List.of());
            assertThat(schema.tables()).containsExactly("sqlite_schema");
            SqliteReadAudit.Audit write = SqliteReadAudit.audit(c, pages, "DELETE FROM singer", List.of());
            assertThat(write.forbidden()).isNotEmpty();
        }
    }

    static List<String> payloads() throws Exception {
        Set<String> out = new LinkedHashSet<>();
        Path dir = SpiderData.root().resolve("sqli");
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".txt")).sorted().toList()) {
                for (String line : Files.readAllLines(f, StandardCharsets.ISO_8859_1)) {
                    if (line.isEmpty()) {
                        continue;
                    }
                    out.add(line);
                    try {
                        out.add(URLDecoder.decode(line, StandardCharsets.UTF_8));
                    } catch (IllegalArgumentException notEncoded) {
                        // keep the raw line only
                    }
                }
            }
        }
        return new ArrayList<>(out);
    }
}
