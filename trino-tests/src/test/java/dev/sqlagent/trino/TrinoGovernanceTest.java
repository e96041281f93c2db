package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineVerdict;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.testkit.ScriptedLlm;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The same governance on Trino, each layer alone and the whole path, judged by what reaches the twins
 * ({@code memory.hr} and {@code memory.hr_b}, which differ only in forbidden data; see {@link TrinoHr}).
 *
 * <ul>
 *   <li><b>Guard alone</b>: every hostile entry is refused, or what the guard would run is harmless on the
 *       twins (no marker, the twins agree). A statement that changes things must be refused.</li>
 *   <li><b>Engine check alone</b> (the guard bypassed: the raw statement handed in as accepted): every hostile
 *       entry is refused by Trino's own plan, or is harmless run raw.</li>
 *   <li><b>Full path</b>: an agent whose model writes the entry, with a policy naming
 *       {@code memory.hr.people} (resolved against the session's catalog and schema): nothing it answers
 *       differs between the twins or shows a marker.</li>
 *   <li><b>Legitimate</b>: the legitimate corpus is answered by the whole path, with the rows it returns raw.</li>
 * </ul>
 */
class TrinoGovernanceTest {

    private static final String QUESTION = "Show me the requested data.";

    static GuardPolicy policy(String prefix) {
        return GuardPolicy.builder()
                .allowTables(prefix + "people", prefix + "pets", prefix + "orders")
                .denyColumn(prefix + "people", "ssn").denyColumn(prefix + "people", "salary")
                .denyColumn(prefix + "orders", "card")
                .rowFilter(prefix + "pets", "owner", TrinoHr.PET_OWNER)
                .rowFilter(prefix + "orders", "tenant", TrinoHr.ORDER_TENANT)
                .build();
    }

    @BeforeAll
    static void twins() throws Exception {
        TrinoHr.ensure();
    }

    @AfterAll
    static void rebuild() throws Exception {
        TrinoHr.reload();
    }

    private static List<TrinoCorpus.Entry> hostile() throws Exception {
        return TrinoHostileRawTest.corpus();
    }

    private static UrlDataSource twin(String schema) {
        return new UrlDataSource(TrinoFixture.cluster().jdbcUrl("memory", schema), TrinoFixture.ADMIN, null);
    }

    /** Null when the statement, run on both twins with its bound values, does no harm; else what it showed. */
    private static String harm(TrinoCorpus.Entry e, SqlStatement statement) {
        if (e.mark().equals("runs")) {
            return "a statement that changes things was let through: " + statement.sql();
        }
        try (Connection a = TrinoFixture.admin("memory", TrinoHr.SCHEMA);
             Connection b = TrinoFixture.admin("memory", TrinoHr.SCHEMA_B)) {
            return judge(e, TrinoCorpus.run(a, statement), TrinoCorpus.run(b, statement));
        } catch (Exception ex) {
            return null; // it fails: it reads nothing
        }
    }

    private static String judge(TrinoCorpus.Entry e, List<String> rowsA, List<String> rowsB) {
        String textA = String.join("\n", rowsA);
        if (e.mark().startsWith("shows ")) {
            return textA.toLowerCase(Locale.ROOT).contains(e.mark().substring(6).toLowerCase(Locale.ROOT))
                    ? "shows " + e.mark().substring(6) : null;
        }
        if (!TrinoHr.markers(textA).isEmpty() || !TrinoHr.markers(String.join("\n", rowsB)).isEmpty()) {
            return "shows markers " + TrinoHr.markers(textA + "\n" + String.join("\n", rowsB));
        }
        boolean differ = e.mark().equals("ordered") ? !rowsA.equals(rowsB)
                : !TrinoCorpus.sorted(rowsA).equals(TrinoCorpus.sorted(rowsB));
        return differ ? "the twins differ" : null;
    }

    @Test
    void theGuardAloneLetsNoHostileEntryDoHarm() throws Exception {
        SqlGuard guard = SqlGuard.create();
        GuardPolicy policy = policy("");
        List<String> escapes = new ArrayList<>();
        int refused = 0;
        List<TrinoCorpus.Entry> entries = hostile();
        for (TrinoCorpus.Entry e : entries) {
            GuardVerdict v = guard.check(e.sql(), policy, Dialect.TRINO);
            if (v instanceof GuardVerdict.Accepted a) {
                String harm = harm(e, a.statement());
                if (harm != null) {
                    escapes.add(e + "\n    ran " + a.statement() + "\n    " + harm);
                }
            } else {
                refused++;
            }
        }
        System.out.printf("trino guard alone: %d hostile entries, %d refused, %d accepted, %d escapes%n",
                entries.size(), refused, entries.size() - refused, escapes.size());
        assertThat(escapes).as("hostile entries the guard alone let do harm").isEmpty();
    }

    @Test
    void theEngineCheckAloneLetsNoHostileEntryDoHarm() throws Exception {
        GuardPolicy policy = policy("");
        EngineCheck check = EngineCheck.create(twin(TrinoHr.SCHEMA), Dialect.TRINO);
        List<String> escapes = new ArrayList<>();
        int refused = 0;
        List<TrinoCorpus.Entry> entries = hostile();
        int rowFilters = 0;
        for (TrinoCorpus.Entry e : entries) {
            if (e.cls().equals("row-filter")) {
                // the guard's rewrite enforces row filters; a plan shows which table is read, not which rows
                // (on a governed cluster Trino's own row filter does: TrinoGovernedClusterTest)
                rowFilters++;
                continue;
            }
            GuardVerdict.Accepted raw = new GuardVerdict.Accepted(e.sql(), new SqlStatement(e.sql(), List.of()),
                    Set.of(), Set.of());
            EngineVerdict v = check.check(raw, policy);
            if (v instanceof EngineVerdict.Confirmed) {
                String harm = harm(e, raw.statement());
                if (harm != null) {
                    escapes.add(e + "\n    " + harm);
                }
            } else {
                refused++;
            }
        }
        System.out.printf("trino engine check alone: %d hostile entries (%d row-filter entries left to the guard's"
                + " rewrite), %d refused, %d confirmed, %d escapes%n", entries.size(), rowFilters, refused,
                entries.size() - rowFilters - refused, escapes.size());
        assertThat(escapes).as("hostile entries the engine check alone let do harm").isEmpty();
    }

    /** One agent per twin, its model writing whatever {@code current} holds. */
    private static final class Twins {
        final AtomicReference<String> current = new AtomicReference<>("SELECT 1");
        final SqlAgent a;
        final SqlAgent b;

        Twins() {
            a = agent(TrinoHr.SCHEMA);
            b = agent(TrinoHr.SCHEMA_B);
        }

        private SqlAgent agent(String schema) {
            ScriptedLlm llm = ScriptedLlm.create().fallback(r -> LlmResponse.of(current.get()));
            return SqlAgent.builder().llm(llm).dataSource(twin(schema)).dialect(Dialect.TRINO)
                    .policy(policy("memory." + schema + ".")).build();
        }

        List<AgentResult> ask(String sql) {
            current.set(sql);
            return List.of(a.ask(QUESTION), b.ask(QUESTION));
        }
    }

    /** Rows with each map cell's entries sorted: the driver's text and a Java map print entries in other orders. */
    private static List<String> maps(List<String> rows) {
        List<String> out = new ArrayList<>();
        java.util.regex.Pattern map = java.util.regex.Pattern.compile("\\{([^{}]*)\\}");
        for (String r : rows) {
            java.util.regex.Matcher m = map.matcher(r);
            StringBuilder b = new StringBuilder();
            while (m.find()) {
                List<String> entries = new ArrayList<>(List.of(m.group(1).split(", ")));
                java.util.Collections.sort(entries);
                m.appendReplacement(b, java.util.regex.Matcher.quoteReplacement("{" + String.join(", ", entries) + "}"));
            }
            m.appendTail(b);
            out.add(b.toString());
        }
        return out;
    }

    @Test
    void theWholePathLetsNoHostileEntryDoHarm() throws Exception {
        Twins twins = new Twins();
        List<String> escapes = new ArrayList<>();
        int answered = 0;
        List<TrinoCorpus.Entry> entries = hostile();
        for (TrinoCorpus.Entry e : entries) {
            List<AgentResult> r = twins.ask(e.sql());
            if (r.get(0) instanceof AgentResult.Answered || r.get(1) instanceof AgentResult.Answered) {
                answered++;
                String harm = e.mark().equals("runs") ? "a statement that changes things was answered"
                        : judge(e, TrinoCorpus.answered(r.get(0)), TrinoCorpus.answered(r.get(1)));
                if (harm != null) {
                    escapes.add(e + "\n    " + harm);
                }
            }
        }
        System.out.printf("trino whole path: %d hostile entries, %d answered, %d escapes%n", entries.size(),
                answered, escapes.size());
        assertThat(escapes).as("hostile entries the whole path let do harm").isEmpty();
    }

    @Test
    void theLegitimateCorpusIsAnsweredWithTheRowsItReturnsRaw() throws Exception {
        Twins twins = new Twins();
        SqlGuard guard = SqlGuard.create();
        GuardPolicy bare = policy("");
        List<TrinoCorpus.Entry> entries = TrinoCorpus.read("trino-legit/queries.sql");
        List<String> guardRefused = new ArrayList<>();
        List<String> notAnswered = new ArrayList<>();
        List<String> wrongRows = new ArrayList<>();
        for (TrinoCorpus.Entry e : entries) {
            if (guard.check(e.sql(), bare, Dialect.TRINO) instanceof GuardVerdict.Rejected r) {
                guardRefused.add(e + "\n    " + r.violations());
            }
            AgentResult got = twins.ask(e.sql()).get(0);
            if (!(got instanceof AgentResult.Answered)) {
                notAnswered.add(e + "\n    " + got);
                continue;
            }
            try (Connection a = TrinoFixture.admin("memory", TrinoHr.SCHEMA)) {
                List<String> raw = TrinoCorpus.run(a, e.sql());
                if (!TrinoCorpus.sorted(maps(raw)).equals(TrinoCorpus.sorted(maps(TrinoCorpus.answered(got))))) {
                    wrongRows.add(e + "\n    raw " + raw + "\n    got " + TrinoCorpus.answered(got));
                }
            }
        }
        System.out.printf("trino legitimate: %d entries, guard refused %d, not answered %d, rows differ %d%n%s%n",
                entries.size(), guardRefused.size(), notAnswered.size(), wrongRows.size(),
                String.join("\n", notAnswered));
        assertThat(wrongRows).as("legitimate entries answered with other rows than raw").isEmpty();
        // what the guard does not read yet, refused closed (docs/trino.md): none of this corpus. A change either way
        // fails here and says which.
        List<String> knownRefusals = List.of();
        List<String> unexpected = new ArrayList<>();
        for (String n : notAnswered) {
            if (knownRefusals.stream().noneMatch(n::contains)) {
                unexpected.add(n);
            }
        }
        assertThat(unexpected).as("legitimate entries not answered").isEmpty();
        assertThat(notAnswered).as("the known refusals, one entry each").hasSize(knownRefusals.size());
        assertThat(guardRefused).hasSize(knownRefusals.size());
    }
}
