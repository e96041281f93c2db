package dev.sqlagent.cases;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.vector.HashingEmbedder;
import dev.sqlagent.vector.VectorMatch;
import dev.sqlagent.vector.VectorStore;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * A shared vector store that is down costs the agent its examples and repairs, never an answer: the
 * retrieval counts as empty, and the failure is counted on the library.
 */
class CaseLibraryStoreDownTest {

    /** A store whose database is unreachable. */
    static final class DownStore implements VectorStore {
        @Override
        public void add(String id, float[] vector, Map<String, String> metadata) {
            throw new IllegalStateException("connection refused");
        }

        @Override
        public List<VectorMatch> search(float[] query, int k, Predicate<Map<String, String>> filter) {
            throw new IllegalStateException("connection refused");
        }

        @Override
        public boolean remove(String id) {
            throw new IllegalStateException("connection refused");
        }

        @Override
        public int size() {
            throw new IllegalStateException("connection refused");
        }

        @Override
        public int dimension() {
            return HashingEmbedder.DEFAULT_DIMENSION;
        }
    }

    @Test
    void aStoreThatIsDownIsNoExamplesAndNoRepairsNeverAFailedQuestion() {
        CompanyDatabase db = CompanyDatabase.create();
        ScriptedLlm llm = ScriptedLlm.create();
        CaseLibrary library = CaseLibrary.builder().store(new DownStore()).build();
        SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).caseLibrary(library).build();
        llm.enqueueFor("refiner", "SELECT nme FROM employees");
        llm.enqueueFor("refiner", "{\"reason\": \"the column is name\", \"sql\": \"SELECT name FROM employees\"}");

        AgentResult r = agent.ask("List employee names");

        assertThat(r.status()).isEqualTo(AgentResult.Status.ANSWERED);
        assertThat(library.retrievalFailures()).as("examples before generation, repairs in the correction")
                .isEqualTo(2);
        assertThat(agent.metrics().sinkFailures()).as("learning the case failed too").isEqualTo(1);
    }
}
