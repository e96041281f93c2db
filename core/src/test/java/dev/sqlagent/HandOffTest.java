package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.internal.JsonTree;
import dev.sqlagent.support.LegalTraceExtension;
import dev.sqlagent.support.TraceRecorder;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What a person gets to take over a rejected or failed question, and the hook that hands it over. */
@ExtendWith(LegalTraceExtension.class)
class HandOffTest {

    private static final String SELECTION = "{\"related_tables\": [\"orders\", \"employees\"],"
            + " \"related_columns\": {\"orders\": [\"amount\", \"employee_id\"], \"employees\": [\"name\"]},"
            + " \"reason\": \"sales per employee\"}";
    private static final String PLAN = "{\"steps\": [{\"step_id\": 1, \"goal\": \"sum orders.amount per employee_id\","
            + " \"depends_on\": []}, {\"step_id\": 2, \"goal\": \"join employees.name to the sums\","
            + " \"depends_on\": [1]}]}";

    private CompanyDatabase db;
    private ScriptedLlm llm;
    private final List<HandOff> handed = new ArrayList<>();

    @BeforeEach
    void setUp() {
        db = CompanyDatabase.create();
        llm = ScriptedLlm.create();
    }

    private SqlAgent agent(TraceRecorder recorder) {
        return SqlAgent.builder().llm(llm).dataSource(db.analyst()).selector(StageMode.ALWAYS)
                .decomposer(StageMode.ALWAYS).policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES))
                .listener(recorder).onHandOff(handed::add).build();
    }

    @Test
    void aFailedQuestionCarriesEverythingTriedAndTheCorrection(TraceRecorder recorder) throws Exception {
        llm.enqueueFor("selector", SELECTION).enqueueFor("decomposer", PLAN);
        llm.enqueueFor("refiner", "SELECT e.nickname, SUM(o.amount) FROM orders o JOIN employees e"
                + " ON e.id = o.employee_id GROUP BY e.nickname");
        llm.enqueueFor("refiner", "{\"reason\": \"try again\", \"sql\": \"SELECT e.alias, SUM(o.amount) FROM orders o"
                + " JOIN employees e ON e.id = o.employee_id GROUP BY e.alias\"}");
        AgentResult r = recorder.track(agent(recorder).ask("Total sales per employee"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.FAILED);
        HandOff h = r.handOff().orElseThrow();
        assertThat(handed).containsExactly(h);
        assertThat(h.questionId()).isEqualTo(r.trace().questionId());
        assertThat(h.askedQuestion()).isEqualTo("Total sales per employee");
        assertThat(h.failureKind()).contains(FailureKind.STILL_FAILING);
        assertThat(h.errorCategory()).contains("COLUMN_NOT_FOUND");
        // the selection as it ended: the column-not-found correction dropped it for the whole schema
        assertThat(h.schemaSelection()).isEmpty();
        assertThat(h.plan()).contains("sum orders.amount per employee_id");
        assertThat(h.attempts()).extracting(CaseAttempt::sql).hasSize(2);
        assertThat(h.attempts().get(0).sql()).contains("nickname");
        assertThat(h.attempts().get(0).execResult()).isEqualTo("invented_name");
        assertThat(h.attempts().get(1).sql()).contains("alias");
        assertThat(h.correction().orElseThrow().originalSql()).contains("nickname");
        assertThat(h.reason()).isEqualTo(((AgentResult.Failed) r).message());

        Map<String, Object> json = JsonTree.parseObject(h.toJson());
        assertThat(json.keySet()).containsExactly("question_id", "status", "asked_question", "question", "reason",
                "failure_kind", "error_category", "schema_selection", "plan", "attempts", "correction",
                "judge_advice");
        assertThat(json.get("status")).isEqualTo("FAILED");
        assertThat(json.get("failure_kind")).isEqualTo("STILL_FAILING");
        assertThat(((Map<?, ?>) json.get("correction")).get("original_sql").toString()).contains("nickname");
        assertThat((List<?>) json.get("attempts")).hasSize(2);
        assertThat(h.toJson()).doesNotContain("\n");
    }

    @Test
    void aRejectedQuestionCarriesTheViolationAndNoFailureKind(TraceRecorder recorder) throws Exception {
        llm.enqueueFor("selector", SELECTION).enqueueFor("decomposer", PLAN);
        llm.enqueueFor("refiner", "SELECT employee_id, base_salary FROM salary_detail");
        AgentResult r = recorder.track(agent(recorder).ask("What does each employee earn?"));

        assertThat(r.status()).isEqualTo(AgentResult.Status.REJECTED);
        HandOff h = r.handOff().orElseThrow();
        assertThat(handed).containsExactly(h);
        assertThat(h.failureKind()).isEmpty();
        assertThat(h.schemaSelection()).containsOnlyKeys("ORDERS", "EMPLOYEES");
        assertThat(h.schemaSelection().get("EMPLOYEES")).contains("NAME");
        assertThat(h.plan()).contains("join employees.name");
        assertThat(h.reason()).isEqualTo(((AgentResult.Rejected) r).violations().get(0).message());
        assertThat(h.attempts()).singleElement().satisfies(a -> assertThat(a.execResult()).isEqualTo("rejected"));
        Map<String, Object> json = JsonTree.parseObject(h.toJson());
        assertThat(json.get("failure_kind")).isNull();
        assertThat(json.get("correction")).isNull();
    }

    @Test
    void anAnswerHasNoHandOffAndAFailingHookLeavesTheResultAlone(TraceRecorder recorder) {
        SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).listener(recorder)
                .onHandOff(h -> {
                    throw new IllegalStateException("ticketing is down");
                }).build();
        llm.enqueueFor("refiner", "SELECT name FROM employees");
        llm.enqueueFor("refiner", "SELECT base_salary FROM salary_detail");

        AgentResult answered = recorder.track(agent.ask("Who works here?"));
        AgentResult rejected = recorder.track(agent.ask("What do they earn?"));

        assertThat(answered.handOff()).isEmpty();
        assertThat(rejected.status()).isEqualTo(AgentResult.Status.REJECTED);
        assertThat(rejected.handOff()).isPresent();
        agent.close();
    }

    /** The attempt type, named for readability. */
    private interface CaseAttempt {
        static String sql(dev.sqlagent.cases.CaseRecord.Attempt a) {
            return a.sql();
        }
    }
}
