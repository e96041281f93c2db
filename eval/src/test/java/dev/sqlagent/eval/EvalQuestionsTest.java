package dev.sqlagent.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvalQuestionsTest {

    @TempDir
    Path dir;

    @Test
    void jsonLinesGiveQuestionsWithNumericIdsAsText() throws IOException {
        Path f = Files.writeString(dir.resolve("q.jsonl"),
                "{\"id\": 7, \"db_id\": \"music\", \"question\": \"How many?\", \"gold_sql\": \"SELECT 1\"}\n\n"
                        + "{\"db_id\": \"zoo\", \"question\": \"Which?\", \"category\": \"lookup\", \"table\": \"animal\"}\n");

        List<EvalQuestion> qs = EvalQuestions.load(f);

        assertThat(qs).containsExactly(new EvalQuestion("7", "How many?", "SELECT 1", "music", "", ""),
                new EvalQuestion("2", "Which?", "", "zoo", "animal", "lookup"));
    }

    @Test
    void csvHandlesQuotedCommasQuotesAndLineBreaks() throws IOException {
        Path f = Files.writeString(dir.resolve("q.csv"), "id,question,gold_sql,db_id,category\n"
                + "a,\"Names, ages of \"\"old\"\" singers?\",\"SELECT name, age\nFROM singer\",music,list\n"
                + "b,How many?,,music,\n");

        List<EvalQuestion> qs = EvalQuestions.load(f);

        assertThat(qs).hasSize(2);
        assertThat(qs.get(0).question()).isEqualTo("Names, ages of \"old\" singers?");
        assertThat(qs.get(0).goldSql()).isEqualTo("SELECT name, age\nFROM singer");
        assertThat(qs.get(1).hasGold()).isFalse();
    }

    @Test
    void malformedJsonNamesFileAndLine() throws IOException {
        Path f = Files.writeString(dir.resolve("bad.jsonl"),
                "{\"db_id\": \"a\", \"question\": \"q\"}\n{\"db_id\": \"a\", \"question\": \n");

        assertThatThrownBy(() -> EvalQuestions.load(f)).isInstanceOf(EvalInputException.class)
                .hasMessageStartingWith(f + ":2: not a JSON object");
    }

    @Test
    void missingDatabaseIdNamesTheLine() throws IOException {
        Path f = Files.writeString(dir.resolve("bad.csv"), "question,db_id\nfine,music\nno database,\n");

        assertThatThrownBy(() -> EvalQuestions.load(f)).isInstanceOf(EvalInputException.class)
                .hasMessage(f + ":3: field 'db_id' is missing or blank");
    }

    @Test
    void repeatedIdIsRefusedWithBothLines() throws IOException {
        Path f = Files.writeString(dir.resolve("dup.jsonl"),
                "{\"id\": 1, \"db_id\": \"a\", \"question\": \"x\"}\n{\"id\": 1, \"db_id\": \"a\", \"question\": \"y\"}\n");

        assertThatThrownBy(() -> EvalQuestions.load(f)).hasMessage(f + ":2: id '1' already used on line 1");
    }

    @Test
    void csvWithoutQuestionColumnIsRefused() throws IOException {
        Path f = Files.writeString(dir.resolve("h.csv"), "id,text,db_id\n1,x,a\n");

        assertThatThrownBy(() -> EvalQuestions.load(f)).hasMessageContaining(":1: the header has no 'question' column");
    }

    @Test
    void unterminatedQuoteNamesTheRecordsFirstLine() throws IOException {
        Path f = Files.writeString(dir.resolve("q.csv"), "question,db_id\n\"open,music\nmore\n");

        assertThatThrownBy(() -> EvalQuestions.load(f)).hasMessage(f + ":2: unterminated quoted cell");
    }
}
