package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import org.junit.jupiter.api.Test;

/** The text a tool replies with: an answer's table with its row count, a refusal, the hand-off when asked. */
class AnswerTextTest {

    private final CompanyDatabase db = CompanyDatabase.create();

    private SqlAgent agent() {
        return SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).build();
    }

    @Test
    void anAnswerIsItsSqlAndAMarkdownTableCutAtTheRowsAsked() {
        try (SqlAgent agent = agent()) {
            AgentResult r = agent.query("SELECT name FROM employees ORDER BY name");
            String text = AnswerText.of(r, 1);

            assertThat(text).startsWith("Answer from the database to: ").contains("\nSQL: SELECT name FROM employees")
                    .contains("Rows: 12\n| NAME |\n| --- |\n").contains("… 11 more rows not shown");
            assertThat(AnswerText.withHandOff(r, 1)).isEqualTo(text);
        }
    }

    @Test
    void aValueHoldingABackslashBeforeAPipeStaysInItsCell() {
        try (SqlAgent agent = agent()) {
            AgentResult r = agent.query("SELECT 'a\\|b' AS v, 'c' AS w FROM employees");
            assertThat(AnswerText.of(r, 1)).contains("| V | W |").contains("| a\\\\\\|b | c |");
        }
    }

    @Test
    void aRefusalSaysNotToObtainTheDataAnotherWayAndOnlyTheHandOffFormAddsTheSql() {
        try (SqlAgent agent = agent()) {
            AgentResult r = agent.query("SELECT * FROM salary_detail");
            String text = AnswerText.of(r, 5);

            assertThat(text).startsWith("The database did not answer: the query was refused by the data access policy (")
                    .endsWith("). Do not try to obtain this data another way.");
            assertThat(AnswerText.withHandOff(r, 5)).startsWith(text).contains("\nSQL: SELECT * FROM salary_detail");
        }
    }
}
