package dev.sqlagent.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.trace.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The guard step on its own: verdicts per candidate, and the retry with the corrected SQL. */
class GuardStepTest {

    private final GuardStep step = new GuardStep(SqlGuard.create(), Dialect.H2, null, null);

    private static RunState state(String... sqls) {
        RunState s = new RunState("q", "how many?", null, GuardPolicy.allowingTables("orders"), "", "");
        List<Candidate> cs = new java.util.ArrayList<>();
        for (String sql : sqls) {
            cs.add(new Candidate(cs.size(), sql));
        }
        s.candidates(cs);
        return s;
    }

    @Test
    void everyCandidateGetsAVerdictInOrderAndATraceEvent() {
        RunState s = state("SELECT COUNT(*) FROM orders", "SELECT * FROM salaries", "SELEC nonsense");
        Outcome.Guarded g = (Outcome.Guarded) step.run(s);
        assertThat(g.verdicts()).hasSize(3);
        assertThat(g.verdicts().get(0)).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(g.verdicts().get(1)).isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(g.verdicts().get(2)).isInstanceOf(GuardVerdict.Unparseable.class);
        assertThat(s.events()).filteredOn(TraceEvent.GuardChecked.class::isInstance).hasSize(3);
        assertThat(s.round()).isZero();
    }

    @Test
    void afterACorrectionTheRoundIsTheCorrectedSqlAlone() {
        RunState s = state("SELECT nme FROM orders", "SELECT x FROM orders");
        s.last(new Outcome.Corrected(new CorrectionTarget("SELECT nme FROM orders", "COLUMN_NOT_FOUND", "no nme"),
                "SELECT COUNT(*) FROM orders", false));
        Outcome.Guarded g = (Outcome.Guarded) step.run(s);
        assertThat(g.verdicts()).singleElement().isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(s.candidates()).extracting(Candidate::sql).containsExactly("SELECT COUNT(*) FROM orders");
        assertThat(s.round()).isEqualTo(1);
    }

    @Test
    void identicalCandidatesAreCheckedOnceAndEachGetsTheVerdict() {
        RunState s = state("SELECT COUNT(*) FROM orders", "SELECT COUNT(*) FROM orders", "SELECT id FROM orders");
        Outcome.Guarded g = (Outcome.Guarded) step.run(s);
        assertThat(g.verdicts()).hasSize(3);
        assertThat(g.verdicts().get(0)).isSameAs(g.verdicts().get(1));
        assertThat(g.verdicts().get(2)).isNotSameAs(g.verdicts().get(0));
        assertThat(s.events()).filteredOn(TraceEvent.GuardChecked.class::isInstance).hasSize(3);
    }

    @Test
    void candidatesReadSideBySideGetTheVerdictsTheyGetOneAfterAnother() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            GuardStep parallel = new GuardStep(SqlGuard.create(), Dialect.H2, null, pool);
            String[] sqls = {"SELECT COUNT(*) FROM orders", "SELECT * FROM salaries", "SELEC nonsense",
                "SELECT id FROM orders WHERE id > 3", "SELECT COUNT(*) FROM orders", "SELECT id FROM orders o"};
            RunState side = state(sqls);
            RunState serial = state(sqls);
            Outcome.Guarded a = (Outcome.Guarded) parallel.run(side);
            Outcome.Guarded b = (Outcome.Guarded) step.run(serial);
            assertThat(a.verdicts()).isEqualTo(b.verdicts());
            assertThat(side.events()).filteredOn(TraceEvent.GuardChecked.class::isInstance)
                    .extracting(e -> ((TraceEvent.GuardChecked) e).candidate()).containsExactly(0, 1, 2, 3, 4, 5);
        } finally {
            pool.shutdownNow();
        }
    }
}
