package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link AgentResult#toJson()}: one line, the stable field names, the rows of an answer as JSON values. */
class AgentResultJsonTest {

    private static final String REFINER = AgentRole.REFINER.id();

    private CompanyDatabase db;
    private ScriptedLlm llm;

    @BeforeEach
    void setUp() {
        db = CompanyDatabase.create();
        llm = ScriptedLlm.create();
    }

    private SqlAgent agent() {
        return SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).correction(false).build();
    }

    private static List<String> fields(String json) throws IOException {
        List<String> out = new ArrayList<>();
        try (JsonParser p = new JsonFactory().createParser(json)) {
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                out.add(p.currentName());
                p.nextToken();
                p.skipChildren();
            }
            assertThat(p.currentToken()).isEqualTo(JsonToken.END_OBJECT);
            assertThat(p.nextToken()).as("one object, nothing after it").isNull();
        }
        return out;
    }

    @Test
    void anAnswerCarriesItsSqlColumnsAndRows() throws IOException {
        llm.enqueueFor(REFINER, "SELECT COUNT(*) AS n, 'x' AS s, NULL AS z, TRUE AS b FROM employees");
        try (SqlAgent agent = agent()) {
            AgentResult r = agent.ask("How many employees?");
            String json = r.toJson();

            assertThat(json).doesNotContain("\n");
            assertThat(fields(json)).containsExactly("question", "status", "corrections", "llm_calls", "sql",
                    "error_category", "rows", "tokens", "stages", "executed_sql", "columns", "data", "truncated",
                    "row_count", "question_id");
            long n = (Long) ((AgentResult.Answered) r).table().rows().get(0).get(0);
            assertThat(json).contains("\"status\":\"ANSWERED\"", "\"rows\":1", "\"error_category\":null",
                    "\"columns\":[\"N\",\"S\",\"Z\",\"B\"]", "\"data\":[[" + n + ",\"x\",null,true]]",
                    "\"truncated\":false", "\"question_id\":\"" + r.trace().questionId() + "\"");
        }
    }

    @Test
    void anAnswerAtTheRowCapIsTruncatedWhenTheCapIsKnown() throws IOException {
        llm.enqueueFor(REFINER, "SELECT name FROM employees ORDER BY name");
        try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.builder().allowTables(CompanyDatabase.ALLOWED_TABLES).maxRows(2).build())
                .correction(false).build()) {
            AgentResult r = agent.ask("Who works here?");
            // the guard capped the statement at 2: the executor saw no more rows, yet more may exist
            assertThat(r.toJson()).contains("\"rows\":2,", "\"truncated\":false", "\"row_count\":2");
            String json = r.toJson(2);
            assertThat(json).contains("\"truncated\":true", "\"row_count\":2", "\"row_cap\":2",
                    "\"row_cap_reached\":true");
            assertThat(r.toJson(3)).contains("\"truncated\":false", "\"row_cap_reached\":false");
        }
    }

    @Test
    void aRejectionCarriesItsViolationsAndHandOffButNoRows() throws IOException {
        llm.enqueueFor(REFINER, "SELECT base_salary FROM salary_detail");
        try (SqlAgent agent = agent()) {
            String json = agent.ask("Salaries?").toJson();

            assertThat(fields(json)).contains("violations", "hand_off").doesNotContain("data", "failure_kind");
            assertThat(json).contains("\"status\":\"REJECTED\"", "\"violations\":[\"TABLE_NOT_ALLOWED:salary_detail\"]",
                    "\"stages\":[\"RECEIVED\",\"GENERATE\",\"GUARD\",\"REJECTED\"]");
        }
    }

    @Test
    void aFailureCarriesItsKindCategoryAndMessage() throws IOException {
        llm.enqueueFor(REFINER, "SELECT nickname FROM employees");
        try (SqlAgent agent = agent()) {
            String json = agent.ask("Nicknames?").toJson();

            assertThat(fields(json)).contains("failure_kind", "message", "hand_off").doesNotContain("data");
            assertThat(json).contains("\"status\":\"FAILED\"", "\"failure_kind\":\"NOT_CORRECTED\"",
                    "\"error_category\":\"COLUMN_NOT_FOUND\"", "\"sql\":\"SELECT nickname FROM employees\"");
        }
    }
}
