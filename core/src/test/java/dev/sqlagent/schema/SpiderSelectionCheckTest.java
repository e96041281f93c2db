package dev.sqlagent.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.guard.GuardPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.util.TablesNamesFinder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The Spider check of {@link SchemaCompletion}: for every gold query over three or more tables, take
 * away one gold table that lies on a join path between the others (a cut vertex of the gold tables'
 * join subgraph), complete the rest, and count how often exactly the gold tables come back, and how
 * often a superset. Figures and failure cases are printed and written to
 * {@code core/target/spider-selection.txt}; see {@code docs/schema-selection.md}.
 */
class SpiderSelectionCheckTest {

    private static Path dir;
    private static final Map<String, SchemaCatalog> CATALOGS = new LinkedHashMap<>();
    private static List<SpiderData.Question> questions;

    @BeforeAll
    static void load() throws Exception {
        Optional<Path> d = SpiderData.directory();
        if (d.isEmpty()) {
            String msg = "\n!!! SKIPPING the Spider selection check: shared/data/spider-dev not found "
                    + "(sqlagent.projectRoot=" + System.getProperty("sqlagent.projectRoot") + ", user.dir="
                    + System.getProperty("user.dir") + ") !!!\n";
            System.err.println(msg);
            Assumptions.abort(msg);
        }
        dir = d.get();
        questions = SpiderData.questions(dir);
        try (var files = Files.list(dir.resolve("sqlite"))) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (name.endsWith(".sqlite")) {
                    CATALOGS.put(name.substring(0, name.length() - ".sqlite".length()), introspect(f));
                }
            }
        }
    }

    static SchemaCatalog introspect(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        SQLiteDataSource ds = new SQLiteDataSource(config);
        ds.setUrl("jdbc:sqlite:" + file);
        List<String> names = new ArrayList<>();
        try (Connection c = ds.getConnection(); ResultSet rs = c.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                names.add(rs.getString("TABLE_NAME"));
            }
        }
        return SchemaCatalog.introspect(ds, GuardPolicy.allowingTables(names.toArray(String[]::new)));
    }

    @Test
    void introspectedSchemasAgreeWithSpidersTablesJson() throws IOException {
        List<String> differences = new ArrayList<>();
        int fks = 0;
        int matched = 0;
        for (Map<String, Object> db : SpiderData.tablesJson(dir)) {
            SchemaCatalog catalog = CATALOGS.get((String) db.get("db_id"));
            if (catalog == null) {
                continue;
            }
            matched++;
            @SuppressWarnings("unchecked")
            List<String> tableNames = (List<String>) db.get("table_names_original");
            Set<String> expected = new TreeSet<>();
            tableNames.forEach(t -> expected.add(t.toLowerCase(Locale.ROOT)));
            // SQLite's own bookkeeping table is listed by Spider but is no table of the data
            expected.removeIf(t -> t.startsWith("sqlite_"));
            Set<String> actual = new TreeSet<>();
            catalog.tables().forEach(t -> actual.add(t.name().toLowerCase(Locale.ROOT)));
            if (!expected.equals(actual)) {
                differences.add(db.get("db_id") + ": tables.json " + expected + " vs introspected " + actual);
            }
            @SuppressWarnings("unchecked")
            List<List<Object>> jsonFks = (List<List<Object>>) db.get("foreign_keys");
            @SuppressWarnings("unchecked")
            List<List<Object>> columns = (List<List<Object>>) db.get("column_names_original");
            Set<String> jsonPairs = new TreeSet<>();
            for (List<Object> fk : jsonFks) {
                List<Object> from = columns.get(((Number) fk.get(0)).intValue());
                List<Object> to = columns.get(((Number) fk.get(1)).intValue());
                jsonPairs.add(pair(tableNames.get(((Number) from.get(0)).intValue()), tableNames.get(((Number) to.get(0)).intValue())));
            }
            Set<String> ourPairs = new TreeSet<>();
            for (JoinGraph.Edge e : JoinGraph.declaredOnly(catalog).edges()) {
                ourPairs.add(pair(e.fromTable(), e.toTable()));
                fks++;
            }
            if (!jsonPairs.equals(ourPairs)) {
                differences.add(db.get("db_id") + ": joined table pairs in tables.json " + jsonPairs + " vs declared in sqlite " + ourPairs);
            }
        }
        System.out.println("tables.json cross-check: " + matched + " databases, " + fks + " declared foreign keys introspected, "
                + differences.size() + " differences");
        differences.forEach(d -> System.out.println("  " + d));
        assertThat(matched).isEqualTo(CATALOGS.size());
        // table names must agree everywhere; foreign keys may differ where Spider declares keys its rows break
        assertThat(differences).noneMatch(d -> d.contains("introspected"));
    }

    static SchemaCatalog withoutForeignKeys(SchemaCatalog catalog) {
        List<SchemaCatalog.Table> tables = new ArrayList<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            tables.add(new SchemaCatalog.Table(t.name(), t.columns(), t.primaryKey(), List.of(), t.remarks()));
        }
        return SchemaCatalog.of(tables);
    }

    /** Spider's SQLite files often declare a key TEXT on one side and BIGINT on the other. */
    static SchemaCatalog withoutForeignKeysAndTypes(SchemaCatalog catalog) {
        List<SchemaCatalog.Table> tables = new ArrayList<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            List<SchemaCatalog.Column> columns = new ArrayList<>();
            t.columns().forEach(c -> columns.add(new SchemaCatalog.Column(c.name(), "", c.nullable(), c.remarks())));
            tables.add(new SchemaCatalog.Table(t.name(), columns, t.primaryKey(), List.of(), t.remarks()));
        }
        return SchemaCatalog.of(tables);
    }

    private static String pair(String a, String b) {
        String x = a.toLowerCase(Locale.ROOT);
        String y = b.toLowerCase(Locale.ROOT);
        return x.compareTo(y) <= 0 ? x + "-" + y : y + "-" + x;
    }

    /** The outcome counts of one configuration. */
    private static final class Tally {
        int cases;
        int exact;
        int superset;
        int missing;
        final List<String> failures = new ArrayList<>();
        final List<String> supersets = new ArrayList<>();
    }

    @Test
    void completionRestoresTheTableRemovedFromAGoldJoin() throws IOException {
        int multiTable = 0;
        int withoutCandidate = 0;
        int unparsed = 0;
        int queries = 0;
        Map<String, Tally> byConfig = new LinkedHashMap<>();
        Map<String, Tally> byDb = new LinkedHashMap<>();
        for (SpiderData.Question q : questions) {
            SchemaCatalog catalog = CATALOGS.get(q.dbId());
            if (catalog == null) {
                continue;
            }
            Set<String> gold = goldTables(q.goldSql(), catalog);
            if (gold == null) {
                unparsed++;
                continue;
            }
            if (gold.size() < 3) {
                continue;
            }
            multiTable++;
            List<String> removable = cutVertices(gold, catalog.joinGraph());
            if (removable.isEmpty()) {
                withoutCandidate++;
                continue;
            }
            queries++;
            for (String removed : removable) {
                Map<String, Set<String>> chosen = new LinkedHashMap<>();
                for (String t : gold) {
                    if (!t.equals(removed)) {
                        chosen.put(t, Set.of());
                    }
                }
                String label = "#" + q.id() + " " + q.dbId() + " without " + removed;
                tally(byConfig.computeIfAbsent("declared + inferred, with question", k -> new Tally()), gold, label, q,
                        SchemaCompletion.of(catalog).complete(q.question(), chosen));
                tally(byDb.computeIfAbsent(q.dbId(), k -> new Tally()), gold, label, q,
                        SchemaCompletion.of(catalog).complete(q.question(), chosen));
                tally(byConfig.computeIfAbsent("declared + inferred, bridges only", k -> new Tally()), gold, label, q,
                        SchemaCompletion.of(catalog).complete("", chosen));
                tally(byConfig.computeIfAbsent("declared only, with question", k -> new Tally()), gold, label, q,
                        SchemaCompletion.of(catalog, JoinGraph.declaredOnly(catalog)).complete(q.question(), chosen));
                SchemaCatalog keyless = withoutForeignKeys(catalog);
                tally(byConfig.computeIfAbsent("inferred only (declared keys removed)", k -> new Tally()), gold, label, q,
                        SchemaCompletion.of(keyless).complete(q.question(), chosen));
                tally(byConfig.computeIfAbsent("inferred only, types not compared", k -> new Tally()), gold, label, q,
                        SchemaCompletion.of(withoutForeignKeysAndTypes(catalog)).complete(q.question(), chosen));
            }
            if (removable.size() > 1) {
                Map<String, Set<String>> chosen = new LinkedHashMap<>();
                for (String t : gold) {
                    if (!removable.contains(t)) {
                        chosen.put(t, Set.of());
                    }
                }
                if (chosen.size() >= 2) {
                    tally(byConfig.computeIfAbsent("all removable tables at once", k -> new Tally()), gold,
                            "#" + q.id() + " " + q.dbId() + " without " + removable, q,
                            SchemaCompletion.of(catalog).complete(q.question(), chosen));
                }
            }
        }
        StringBuilder report = new StringBuilder();
        report.append(String.format(Locale.ROOT, "Spider dev: %d questions, %d gold queries over 3+ tables (%d unparsed), "
                + "%d with a removable join table, %d without one%n", questions.size(), multiTable, unparsed, queries, withoutCandidate));
        report.append(String.format(Locale.ROOT, "%-40s %6s %14s %14s %14s%n", "configuration", "cases", "exact", "superset", "missing"));
        byConfig.forEach((name, t) -> report.append(row(name, t)));
        report.append(String.format(Locale.ROOT, "%nper database (declared + inferred, with question)%n"));
        byDb.forEach((name, t) -> report.append(row(name, t)));
        Tally main = byConfig.get("declared + inferred, with question");
        byConfig.forEach((name, t) -> {
            report.append(String.format(Locale.ROOT, "%n[%s] failures (gold not restored): %d%n", name, t.failures.size()));
            t.failures.forEach(f -> report.append("  ").append(f).append('\n'));
            report.append(String.format(Locale.ROOT, "[%s] supersets (gold restored, more added): %d%n", name, t.supersets.size()));
            t.supersets.forEach(f -> report.append("  ").append(f).append('\n'));
        });
        System.out.println(report);
        Path out = Path.of(System.getProperty("user.dir"), "target", "spider-selection.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report, StandardCharsets.UTF_8);

        assertThat(queries).as("queries with a removable join table").isGreaterThanOrEqualTo(50);
        assertThat(rate(main.exact, main.cases)).as("exact restoration rate").isGreaterThanOrEqualTo(EXACT_FLOOR);
        assertThat(rate(main.exact + main.superset, main.cases)).as("exact or superset rate").isGreaterThanOrEqualTo(SUPERSET_FLOOR);
        Tally inferred = byConfig.get("inferred only (declared keys removed)");
        assertThat(rate(inferred.exact, inferred.cases)).as("exact rate from inferred keys alone")
                .isGreaterThanOrEqualTo(INFERRED_ONLY_EXACT_FLOOR);
    }

    /** Measured floors (see docs/schema-selection.md), a little below the figures. */
    private static final double EXACT_FLOOR = 0.95;
    private static final double SUPERSET_FLOOR = 0.95;
    private static final double INFERRED_ONLY_EXACT_FLOOR = 0.50;

    private static double rate(int n, int of) {
        return of == 0 ? 0 : (double) n / of;
    }

    private static String row(String name, Tally t) {
        return String.format(Locale.ROOT, "%-40s %6d %6d (%5.1f%%) %6d (%5.1f%%) %6d (%5.1f%%)%n", name, t.cases, t.exact,
                100 * rate(t.exact, t.cases), t.superset, 100 * rate(t.superset, t.cases), t.missing, 100 * rate(t.missing, t.cases));
    }

    private static void tally(Tally t, Set<String> gold, String label, SpiderData.Question q, SchemaCompletion.CompletedSelection done) {
        t.cases++;
        Set<String> got = new TreeSet<>();
        done.selection().keySet().forEach(x -> got.add(x.toLowerCase(Locale.ROOT)));
        Set<String> want = new TreeSet<>(gold);
        if (got.equals(want)) {
            t.exact++;
        } else if (got.containsAll(want)) {
            t.superset++;
            Set<String> extra = new TreeSet<>(got);
            extra.removeAll(want);
            t.supersets.add(label + ": extra " + extra + " | " + q.question() + " | notes " + done.notes());
        } else {
            t.missing++;
            t.failures.add(label + ": gold " + want + " got " + got + " | " + q.question() + " | " + q.goldSql());
        }
    }

    private static final Pattern FROM_JOIN = Pattern.compile("(?i)\\b(?:from|join)\\s+([A-Za-z_][A-Za-z0-9_]*)");

    /** @return the gold query's tables in lower case, or null when neither parser nor fallback finds any known table */
    static Set<String> goldTables(String sql, SchemaCatalog catalog) {
        Set<String> raw = new LinkedHashSet<>();
        try {
            raw.addAll(TablesNamesFinder.findTables(sql));
        } catch (Exception | Error e) {
            Matcher m = FROM_JOIN.matcher(sql);
            while (m.find()) {
                raw.add(m.group(1));
            }
        }
        Set<String> out = new TreeSet<>();
        for (String r : raw) {
            String bare = r.replace("\"", "").replace("`", "");
            catalog.table(bare).ifPresent(t -> out.add(t.name().toLowerCase(Locale.ROOT)));
        }
        return out.isEmpty() ? null : out;
    }

    /** @return the gold tables whose removal splits the others in the gold tables' own join subgraph */
    static List<String> cutVertices(Set<String> gold, JoinGraph graph) {
        List<String> out = new ArrayList<>();
        int base = components(gold, null, graph);
        for (String x : gold) {
            if (components(gold, x, graph) > base) {
                out.add(x);
            }
        }
        return out;
    }

    private static int components(Set<String> gold, String without, JoinGraph graph) {
        Map<String, Boolean> seen = new HashMap<>();
        int n = 0;
        for (String start : gold) {
            if (start.equals(without) || seen.containsKey(start)) {
                continue;
            }
            n++;
            Deque<String> todo = new ArrayDeque<>(List.of(start));
            seen.put(start, true);
            while (!todo.isEmpty()) {
                String t = todo.pop();
                for (String nb : graph.neighbours(t)) {
                    String l = nb.toLowerCase(Locale.ROOT);
                    if (gold.contains(l) && !l.equals(without) && seen.putIfAbsent(l, true) == null) {
                        todo.push(l);
                    }
                }
            }
        }
        return n;
    }
}
