package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.cases.CaseLibrary;
import dev.sqlagent.cases.CaseRecord;
import dev.sqlagent.cases.InMemoryCaseSink;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.guard.engine.PrivilegeReport;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.verify.Verifiers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link SqlAgent#query}: SQL written by the caller takes the governed path of the model's SQL (guard, row cap
 * and row filters, engine check, read-only execution), is counted, traced and kept as a case like a question,
 * and is never corrected, regenerated or shown to a model.
 */
@ExtendWith(LegalTraceExtension.class)
class CallerSqlTest {

    private CompanyDatabase db;
    private ScriptedLlm llm;
    private InMemoryCaseSink cases;

    @BeforeEach
    void setUp() {
        db = CompanyDatabase.create();
        llm = ScriptedLlm.create();
        cases = new InMemoryCaseSink();
    }

    private SqlAgent.Builder agent(TraceRecorder recorder) {
        return SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).listener(recorder).caseSink(cases);
    }

    @Test
    void acceptedSqlRunsWithTheGuardsRewriteAndNoModelCall(TraceRecorder recorder) {
        try (SqlAgent agent = agent(recorder).build()) {
            AgentResult r = recorder.track(agent.query("SELECT name FROM employees WHERE department_id = 1"));

            assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
            AgentResult.Answered a = (AgentResult.Answered) r;
            assertThat(a.sqlText()).isEqualTo("SELECT name FROM employees WHERE department_id = 1");
            assertThat(a.executedSql()).containsIgnoringCase("LIMIT");
            assertThat(a.table().rowCount()).isEqualTo(3);
            assertThat(llm.callCount()).isZero();
            assertThat(r.trace().stages()).doesNotContain(Stage.CORRECT, Stage.SELECT_SCHEMA, Stage.DECOMPOSE,
                    Stage.METRIC_TOOL, Stage.REWRITE);
            assertThat(agent.metrics().questions()).isEqualTo(1);
            assertThat(agent.metrics().answered()).isEqualTo(1);
        }
    }

    @Test
    void aViolationIsRejectedAndNeverCorrected(TraceRecorder recorder) {
        List<HandOff> handOffs = new ArrayList<>();
        try (SqlAgent agent = agent(recorder).onHandOff(handOffs::add).build()) {
            AgentResult r = recorder.track(agent.query("SELECT employee_id, base_salary FROM salary_detail"));

            assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
            assertThat(((AgentResult.Rejected) r).violations()).extracting(v -> v.type())
                    .contains(ViolationType.TABLE_NOT_ALLOWED);
            assertThat(r.trace().executions()).isEmpty();
            assertThat(r.trace().correctionCount()).isZero();
            assertThat(llm.callCount()).isZero();
            assertThat(agent.metrics().rejected()).isEqualTo(1);
            assertThat(handOffs).singleElement().satisfies(h -> {
                assertThat(h.status()).isEqualTo(AgentResult.Status.REJECTED);
                assertThat(h.askedQuestion()).isEqualTo("SELECT employee_id, base_salary FROM salary_detail");
            });
        }
    }

    @Test
    void aCorrectableDatabaseErrorFailsWithoutACorrection(TraceRecorder recorder) {
        try (SqlAgent agent = agent(recorder).build()) {
            AgentResult r = recorder.track(agent.query("SELECT name, COUNT(*) FROM employees"));

            assertThat(r.status()).isEqualTo(AgentResult.Status.FAILED);
            assertThat(r.trace().executions()).hasSize(1);
            assertThat(r.trace().correctionCount()).isZero();
            assertThat(llm.callCount()).isZero();
        }
    }

    @Test
    void stackedStatementsAndWritesAreRefused(TraceRecorder recorder) {
        long before = orders();
        try (SqlAgent agent = agent(recorder).build()) {
            for (String sql : List.of("SELECT 1; DELETE FROM orders", "DELETE FROM orders",
                    "/* */ DELETE FROM orders", "-- x\nDELETE FROM orders", "COMMIT; DROP TABLE orders")) {
                AgentResult r = recorder.track(agent.query(sql));
                assertThat(r.status()).as(sql).isNotEqualTo(AgentResult.Status.ANSWERED);
                assertThat(r.trace().executions()).as(sql).isEmpty();
            }
        }
        assertThat(orders()).isEqualTo(before);
    }

    @Test
    void theRequestsPolicyAppliesItsRowFilterAndTables(TraceRecorder recorder) {
        GuardPolicy tenant = GuardPolicy.builder().allowTables("orders").rowFilter("orders", "employee_id", 1)
                .build();
        try (SqlAgent agent = agent(recorder).build()) {
            AgentResult r = recorder.track(agent.query(Question.of("SELECT employee_id FROM orders").withPolicy(tenant)));
            assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(((AgentResult.Answered) r).table().rows()).isNotEmpty()
                    .allSatisfy(row -> assertThat(((Number) row.get(0)).longValue()).isEqualTo(1L));

            AgentResult outside = recorder.track(agent.query(Question.of("SELECT name FROM employees").withPolicy(tenant)));
            assertThat(outside.status()).isEqualTo(AgentResult.Status.REJECTED);
        }
    }

    @Test
    void caseIsKeptButNeverAVerifiedExample(TraceRecorder recorder) {
        CaseLibrary library = CaseLibrary.builder().build();
        try (SqlAgent agent = agent(recorder).verifiers(Verifiers.standard()).caseLibrary(library).build()) {
            recorder.track(agent.query(Question.of("SELECT name FROM employees").withCategory("mcp.query")));
        }
        assertThat(cases.cases()).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo(CaseRecord.Status.GOOD);
            assertThat(c.verified()).isFalse();
            assertThat(c.category()).isEqualTo("mcp.query");
        });
        assertThat(library.examplesFor("SELECT name FROM employees", "", "mcp.query",
                GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES))).isEmpty();
    }

    @Test
    void theSchemaUnderAPolicyHidesForbiddenTablesAndDeniedColumns() throws Exception {
        try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).build()) {
            SchemaCatalog all = agent.schema(agent.policy());
            assertThat(all.table("salary_detail")).isEmpty();
            assertThat(all.table("users")).isPresent();

            GuardPolicy narrow = GuardPolicy.builder().allowTables("users", "orders").denyColumn("users", "email")
                    .build();
            SchemaCatalog seen = agent.schema(narrow);
            assertThat(seen.tables()).extracting(SchemaCatalog.Table::name)
                    .allSatisfy(n -> assertThat(n).isIn("USERS", "ORDERS", "users", "orders"));
            assertThat(seen.column("users", "email")).isEmpty();
            assertThat(seen.column("users", "username")).isPresent();
        }
    }

    @Test
    void theAuditHoldsTheLoginToAnyPolicy() throws Exception {
        try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).build()) {
            PrivilegeReport narrow = agent.audit(GuardPolicy.allowingTables("orders"));
            assertThat(narrow.forbiddenTables()).anySatisfy(t -> assertThat(t.toLowerCase()).contains("salary_detail"))
                    .anySatisfy(t -> assertThat(t.toLowerCase()).contains("employees"));
            assertThat(agent.audit().forbiddenTables()).noneSatisfy(
                    t -> assertThat(t.toLowerCase()).contains("employees"));
        }
    }

    @Test
    void nullAndClosedAreRefused() {
        SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).build();
        assertThatThrownBy(() -> agent.query((String) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> agent.query((Question) null)).isInstanceOf(NullPointerException.class);
        AgentResult blank = agent.query("   ");
        assertThat(blank.status()).isEqualTo(AgentResult.Status.FAILED);
        assertThat(((AgentResult.Failed) blank).message()).contains("SQL is blank");
        agent.close();
        assertThatThrownBy(() -> agent.query("SELECT 1")).isInstanceOf(IllegalStateException.class);
    }

    private long orders() {
        try (Connection c = db.admin().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
            rs.next();
            return rs.getLong(1);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
