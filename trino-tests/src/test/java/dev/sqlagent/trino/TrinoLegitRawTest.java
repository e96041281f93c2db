package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Proves the Trino legitimate corpus ({@code trino-legit/*.sql}) fit: every entry runs raw on the twins, returns
 * at least one row, shows no marker, and returns the same rows in {@code memory.hr} and {@code memory.hr_b}
 * (the twins differ only in forbidden data, so an entry that reads none cannot tell them apart).
 */
class TrinoLegitRawTest {

    static final List<String> FILES = List.of("trino-legit/queries.sql");

    @BeforeAll
    static void twins() throws Exception {
        TrinoHr.reload();
    }

    @Test
    void everyEntryRunsAndReadsOnlyAllowedData() throws Exception {
        List<TrinoCorpus.Entry> entries = new ArrayList<>();
        for (String f : FILES) {
            entries.addAll(TrinoCorpus.read(f));
        }
        List<String> bad = new ArrayList<>();
        try (Connection a = TrinoFixture.admin("memory", TrinoHr.SCHEMA);
             Connection b = TrinoFixture.admin("memory", TrinoHr.SCHEMA_B)) {
            for (TrinoCorpus.Entry e : entries) {
                try {
                    List<String> rowsA = TrinoCorpus.run(a, e.sql());
                    List<String> rowsB = TrinoCorpus.run(b, e.sql());
                    List<String> found = TrinoHr.markers(String.join("\n", rowsA));
                    if (rowsA.isEmpty()) {
                        bad.add(e + "\n    returns no row");
                    } else if (!found.isEmpty()) {
                        bad.add(e + "\n    shows " + found);
                    } else if (!TrinoCorpus.sorted(rowsA).equals(TrinoCorpus.sorted(rowsB))) {
                        bad.add(e + "\n    the twins differ: " + rowsA + " / " + rowsB);
                    }
                } catch (Exception ex) {
                    bad.add(e + "\n    fails raw: " + ex.getMessage());
                }
            }
        }
        System.out.printf("trino-legit: %d entries, %d bad%n", entries.size(), bad.size());
        assertThat(bad).as("legitimate entries that fail, return nothing or read forbidden data").isEmpty();
        assertThat(entries.size()).isGreaterThanOrEqualTo(50);
    }
}
