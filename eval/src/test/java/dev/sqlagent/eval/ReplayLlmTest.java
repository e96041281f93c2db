package dev.sqlagent.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.AgentResult;
import dev.sqlagent.FailureKind;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayLlmTest {

    private final List<EvalQuestion> questions = SqliteFixture.questions();
    private final ReplayLlm music = ReplayLlm.create("music", questions, Replays.files());

    private static LlmRequest generate(String question, int n) {
        return LlmRequest.builder().role("refiner").system("schema").user("Question: " + question
                + "\nReply with the SQL query only.").n(n).build();
    }

    @Test
    void answersEachQuestionWithOneCandidatePerFileInFileOrder() {
        LlmResponse r = music.chat(generate("Singers older than 40?", 3));

        assertThat(r.texts()).containsExactly("SELECT name FROM singer WHERE age > 50",
                "SELECT name FROM singer WHERE age > 40", "SELECT name FROM singer WHERE age >= 30");
        assertThat(r.usage().inputTokens()).isPositive();
    }

    @Test
    void aSmallerNTakesTheFirstFiles() {
        assertThat(music.chat(generate("How many singers are there?", 2)).texts()).hasSize(2);
    }

    @Test
    void questionsOfAnotherDatabaseAreUnknown() {
        assertThatThrownBy(() -> music.chat(generate("How many animals?", 3))).isInstanceOf(LlmException.class)
                .hasMessageContaining("database music");
    }

    @Test
    void sameTextWithDifferentPredictionsInOneDatabaseIsRefused() {
        List<EvalQuestion> twins = List.of(new EvalQuestion("1", "Same?", "", "db", "", ""),
                new EvalQuestion("2", "Same?", "", "db", "", ""));
        PredictionFile f = PredictionFile.of("f", Map.of("1", new PredictionFile.Prediction("db", "SELECT 1"),
                "2", new PredictionFile.Prediction("db", "SELECT 2")));

        assertThatThrownBy(() -> ReplayLlm.create("db", twins, List.of(f)))
                .hasMessageContaining("questions 1 and 2 of database db have the same text");
    }

    @Test
    void correctionReturnsTheFailedSqlSoTheAgentStopsUnchanged(@TempDir Path dir) throws Exception {
        SqliteFixture db = new SqliteFixture(dir);

        AgentResult r = db.agent("music", questions, Replays.files()).ask("Average age?");

        assertThat(r.status()).isEqualTo(AgentResult.Status.FAILED);
        assertThat(((AgentResult.Failed) r).kind()).isEqualTo(FailureKind.CORRECTION_UNCHANGED);
        assertThat(r.trace().correction()).hasValueSatisfying(c ->
                assertThat(c.correctedSql()).isEqualTo(c.originalSql()));
        // the three candidates name columns singer does not have: the closed-world guard finds them, so the
        // correction is asked for COLUMN_NOT_FOUND and nothing runs
        assertThat(r.trace().correction()).hasValueSatisfying(c ->
                assertThat(c.errorCategory()).isEqualTo("COLUMN_NOT_FOUND"));
        assertThat(r.trace().executions()).isEmpty();
    }
}
