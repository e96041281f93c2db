package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.ScriptedLlm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine check in the run: a view the policy allows that reads a table the policy forbids passes the
 * guard (which sees only the view's name), but the engine's own plan reads the forbidden table, and the
 * question ends REJECTED without running anything.
 */
@ExtendWith(LegalTraceExtension.class)
class EngineConfirmsTest {

    @TempDir
    Path dir;

    private UrlDataSource db;

    @BeforeEach
    void setUp() throws Exception {
        Path file = dir.resolve("views.db");
        Files.deleteIfExists(file);
        db = new UrlDataSource("jdbc:sqlite:" + file, null, null);
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT)");
            s.execute("CREATE TABLE pay (staff_id INTEGER, salary INTEGER)");
            s.execute("CREATE VIEW staff_pay AS SELECT s.name, p.salary FROM staff s JOIN pay p ON p.staff_id = s.id");
            s.execute("INSERT INTO staff VALUES (1, 'Ann')");
            s.execute("INSERT INTO pay VALUES (1, 100)");
        }
    }

    private SqlAgent.Builder agent(ScriptedLlm llm, TraceRecorder recorder) {
        return SqlAgent.builder().llm(llm).dataSource(db).dialect(Dialect.SQLITE).listener(recorder)
                .policy(GuardPolicy.allowingTables("staff", "staff_pay"));
    }

    @Test
    void aViewOverAForbiddenTableIsRejectedByTheEngine(TraceRecorder recorder) {
        ScriptedLlm llm = ScriptedLlm.create().enqueue("SELECT name, salary FROM staff_pay");
        AgentResult r = recorder.track(agent(llm, recorder).build().ask("What does everyone earn?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
        assertThat(((AgentResult.Rejected) r).violations()).extracting(v -> v.type())
                .contains(ViolationType.ENGINE_DISAGREEMENT);
        assertThat(r.trace().executions()).isEmpty();
        assertThat(llm.callCount()).isEqualTo(1);
    }

    @Test
    void withTheEngineCheckOffOnlyTheGuardDecides(TraceRecorder recorder) {
        ScriptedLlm llm = ScriptedLlm.create().enqueue("SELECT name, salary FROM staff_pay");
        AgentResult r = recorder.track(agent(llm, recorder).engineCheck(false).build().ask("What does everyone earn?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
    }

    @Test
    void aStatementTheEngineReadsAsTheGuardDoesRuns(TraceRecorder recorder) {
        ScriptedLlm llm = ScriptedLlm.create().enqueue("SELECT name FROM staff");
        AgentResult r = recorder.track(agent(llm, recorder).build().ask("Who works here?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
    }
}
