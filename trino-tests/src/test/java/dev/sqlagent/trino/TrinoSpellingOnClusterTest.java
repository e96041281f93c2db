package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.engine.trino.TrinoSpelling;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link TrinoSpelling} against the real engine: what it gives the parser and what it gives back to Trino mean on
 * Trino what the original means, and the corpora as the parser reads them after the pass.
 */
class TrinoSpellingOnClusterTest {

    @BeforeAll
    static void twins() throws Exception {
        TrinoHr.ensure();
    }

    static Statement parse(String sql) throws Exception {
        try {
            return CCJSqlParserUtil.newParser(sql).withAllowComplexParsing(false).withSquareBracketQuotation(false)
                    .withBackslashEscapeCharacter(false).withHashLineComments(false).withDollarQuotedStringTags(false)
                    .Statement();
        } catch (Exception | Error simple) {
            return CCJSqlParserUtil.newParser(sql).withAllowComplexParsing(true).withSquareBracketQuotation(false)
                    .withBackslashEscapeCharacter(false).withHashLineComments(false).withDollarQuotedStringTags(false)
                    .Statement();
        }
    }

    /** The guard's path without its analysis: respell, parse, print, spell back. */
    static String throughTheParser(String sql) throws Exception {
        TrinoSpelling.ForParser p = TrinoSpelling.forParser(sql);
        if (p.refusal() != null) {
            return null;
        }
        return TrinoSpelling.forEngine(parse(p.sql()).toString(), p);
    }

    @Test
    void theArraySpellingMeansOnTrinoWhatTheOriginalMeans() throws Exception {
        String sql = "SELECT CAST(tags AS array(varchar(10))), TRY_CAST(ARRAY['1', 'x'] AS array(integer)),"
                + " CAST(ARRAY[1.5] AS ARRAY(double precision)), CAST(ARRAY['2.25'] AS array(decimal(5, 2)))"
                + " FROM people ORDER BY id";
        String engine = throughTheParser(sql);
        // the parser prints a space before a type's precision, which Trino reads alike
        assertThat(engine).contains("varchar (10) ARRAY").contains("integer ARRAY").contains("double precision ARRAY")
                .contains("decimal (5, 2) ARRAY").doesNotContainIgnoringCase("array(");
        try (Connection c = TrinoFixture.admin("memory", TrinoHr.SCHEMA)) {
            assertThat(TrinoCorpus.run(c, engine)).isEqualTo(TrinoCorpus.run(c, sql)).hasSize(12);
        }
    }

    @Test
    void limitBeforeOffsetIsNotTrinosAndIsTurnedBack() throws Exception {
        String sql = "SELECT name FROM people ORDER BY id OFFSET 3 LIMIT 2";
        String printed = parse(sql).toString();
        try (Connection c = TrinoFixture.admin("memory", TrinoHr.SCHEMA)) {
            assertThatThrownBy(() -> TrinoCorpus.run(c, printed)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("mismatched input");
            assertThat(TrinoCorpus.run(c, throughTheParser(sql))).containsExactly("dee", "eve");
        }
    }

    @Test
    void theLegitimateCorpusMeansTheSameAfterTheParsersPrinting() throws Exception {
        List<String> notRead = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        int total = 0;
        try (Connection c = TrinoFixture.admin("memory", TrinoHr.SCHEMA)) {
            for (String f : TrinoLegitRawTest.FILES) {
                for (TrinoCorpus.Entry e : TrinoCorpus.read(f)) {
                    total++;
                    String engine;
                    try {
                        engine = throughTheParser(e.sql());
                    } catch (Exception | Error ex) {
                        notRead.add(e.sql() + " (" + ex.getClass().getSimpleName() + ")");
                        continue;
                    }
                    if (engine == null) {
                        notRead.add(e.sql() + " (refused by the spelling)");
                        continue;
                    }
                    List<String> raw = TrinoCorpus.sorted(TrinoCorpus.run(c, e.sql()));
                    List<String> printed;
                    try {
                        printed = TrinoCorpus.sorted(TrinoCorpus.run(c, engine));
                    } catch (SQLException ex) {
                        changed.add(e.sql() + "\n    printed " + engine + "\n    fails: " + ex.getMessage());
                        continue;
                    }
                    if (!raw.equals(printed)) {
                        changed.add(e.sql() + "\n    printed " + engine + "\n    returns other rows");
                    }
                }
            }
        }
        System.out.printf("trino-legit through the parser: %d entries, %d not read, %d changed by the printing%n",
                total, notRead.size(), changed.size());
        notRead.forEach(s -> System.out.println("  not read: " + s));
        assertThat(changed).isEmpty();
        assertThat(notRead).isEmpty();
    }

    @Test
    void theHostileCorpusIsReadOrRefused() throws Exception {
        int refused = 0;
        int failed = 0;
        int read = 0;
        List<String> spelledRefusals = new ArrayList<>();
        for (TrinoCorpus.Entry e : TrinoHostileRawTest.corpus()) {
            TrinoSpelling.ForParser p = TrinoSpelling.forParser(e.sql());
            if (p.refusal() != null) {
                refused++;
                spelledRefusals.add(e.sql().toLowerCase(Locale.ROOT));
                continue;
            }
            try {
                parse(p.sql());
                read++;
            } catch (Exception | Error ex) {
                failed++;
            }
        }
        System.out.printf("trino-hostile through the spelling: %d refused by it, %d not parsed, %d parsed (for the"
                + " guard's analysis to judge)%n", refused, failed, read);
        // every table function entry is refused here, before the parser could misread it
        assertThat(spelledRefusals).allMatch(s -> s.contains("table("));
        assertThat(refused).isEqualTo(4);
    }
}
