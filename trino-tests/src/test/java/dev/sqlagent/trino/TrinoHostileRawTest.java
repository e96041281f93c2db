package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Proves the Trino hostile corpus ({@code trino-hostile/*.sql}) real: every entry, run raw as an administrator
 * with no guard, succeeds on the cluster and does its harm. A read of forbidden data shows a marker or returns
 * rows that differ between the twins {@code memory.hr} and {@code memory.hr_b} (which differ only in
 * forbidden data); {@code --! shows X} entries return X (metadata, other catalogs); {@code --! runs} entries
 * (session changes, procedures, writes) succeed, which is their harm. Writes run last, then the twins are
 * rebuilt.
 */
class TrinoHostileRawTest {

    static final List<String> FILES = List.of("trino-hostile/catalogs.sql", "trino-hostile/columns.sql",
            "trino-hostile/statements.sql");

    @BeforeAll
    static void twins() throws Exception {
        TrinoHr.ensure();
    }

    @AfterAll
    static void rebuild() throws Exception {
        TrinoHr.reload();
    }

    static List<TrinoCorpus.Entry> corpus() throws Exception {
        List<TrinoCorpus.Entry> all = new ArrayList<>();
        for (String f : FILES) {
            all.addAll(TrinoCorpus.read(f));
        }
        return all;
    }

    @Test
    void everyEntryDoesItsHarmWhenRunRaw() throws Exception {
        List<TrinoCorpus.Entry> entries = corpus();
        List<String> harmless = new ArrayList<>();
        int reads = 0;
        int shows = 0;
        int runs = 0;
        // reads and metadata first, on fresh twins; the statements that change things last
        for (TrinoCorpus.Entry e : entries) {
            if (e.mark().equals("runs")) {
                continue;
            }
            String problem;
            try (Connection a = TrinoFixture.admin("memory", TrinoHr.SCHEMA);
                 Connection b = TrinoFixture.admin("memory", TrinoHr.SCHEMA_B)) {
                List<String> rowsA = TrinoCorpus.run(a, e.sql());
                String textA = String.join("\n", rowsA);
                if (e.mark().startsWith("shows ")) {
                    String want = e.mark().substring(6);
                    problem = textA.toLowerCase(Locale.ROOT).contains(want.toLowerCase(Locale.ROOT)) ? null
                            : "does not show " + want + ": " + abbreviate(textA);
                    shows++;
                } else {
                    List<String> rowsB = TrinoCorpus.run(b, e.sql());
                    boolean marker = !TrinoHr.markers(textA).isEmpty();
                    // "--! ordered": the harm is the order the denied column puts the rows in
                    boolean differ = e.mark().equals("ordered") ? !rowsA.equals(rowsB)
                            : !TrinoCorpus.sorted(rowsA).equals(TrinoCorpus.sorted(rowsB));
                    problem = marker || differ ? null : "no marker and the twins agree: " + abbreviate(textA);
                    reads++;
                }
            } catch (Exception ex) {
                problem = "fails raw: " + ex.getMessage();
            }
            if (problem != null) {
                harmless.add(e + "\n    " + problem);
            }
        }
        for (TrinoCorpus.Entry e : entries) {
            if (!e.mark().equals("runs")) {
                continue;
            }
            // each on its own session, as a statement the agent would be asked to run
            try (Connection a = TrinoFixture.admin("memory", TrinoHr.SCHEMA)) {
                TrinoCorpus.run(a, e.sql());
                runs++;
            } catch (Exception ex) {
                harmless.add(e + "\n    fails raw: " + ex.getMessage());
            }
        }
        System.out.printf("trino-hostile: %d entries (%d forbidden reads, %d metadata or other catalogs, "
                + "%d statements that change things), %d without harm%n", entries.size(), reads, shows, runs,
                harmless.size());
        assertThat(harmless).as("hostile entries that do no harm raw (drop or fix them)").isEmpty();
        assertThat(entries.size()).isGreaterThanOrEqualTo(100);
    }

    @Test
    void theWritesReallyChangedTheTwin() throws Exception {
        // run in the same JVM after the corpus or alone: either way a fresh write must land
        TrinoHr.reload();
        try (Connection a = TrinoFixture.admin("memory", TrinoHr.SCHEMA)) {
            TrinoCorpus.run(a, "CREATE TABLE leak AS SELECT name, ssn, salary FROM people");
            assertThat(TrinoHr.markers(String.join("\n", TrinoCorpus.run(a, "SELECT ssn FROM leak")))).isNotEmpty();
            TrinoCorpus.run(a, "INSERT INTO people (id, name) VALUES (99, 'zed')");
            assertThat(TrinoCorpus.run(a, "SELECT count(*) FROM people")).containsExactly("13");
        }
        TrinoHr.reload();
    }

    private static String abbreviate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }
}
