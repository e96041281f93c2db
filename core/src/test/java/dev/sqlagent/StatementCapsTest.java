package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.internal.BuildChecks;
import dev.sqlagent.internal.RunScope;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The budget's statement caps ({@link QuestionBudget#withMaxScanBytes}, {@link QuestionBudget#withMaxMemoryBytes})
 * where they cannot be enforced: on H2 (no such setting) and with a custom executor, a cap fails the build or the
 * request, and the executor never runs a statement without the cap it was given. On Trino, where they are
 * enforced, the suites are in {@code trino-tests} ({@code TrinoStatementCapsTest}).
 */
class StatementCapsTest {

    private CompanyDatabase db;
    private ScriptedLlm llm;

    @BeforeEach
    void setUp() {
        db = CompanyDatabase.create();
        llm = ScriptedLlm.create();
    }

    private SqlAgent.Builder agent() {
        return SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES));
    }

    @Test
    void aCapMustBePositive() {
        QuestionBudget b = QuestionBudget.unlimited();
        assertThatThrownBy(() -> b.withMaxScanBytes(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxScanBytes must be >= 1 but was 0");
        assertThatThrownBy(() -> b.withMaxScanBytes(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxScanBytes must be >= 1 but was -1");
        assertThatThrownBy(() -> b.withMaxMemoryBytes(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxMemoryBytes must be >= 1 but was 0");
        assertThatThrownBy(() -> b.withMaxMemoryBytes(Long.MIN_VALUE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("maxMemoryBytes must be >= 1");
        assertThat(b.maxScanBytes()).isEmpty();
        assertThat(b.maxMemoryBytes()).isEmpty();
        assertThat(b.capsStatements()).isFalse();
    }

    @Test
    void aRequestsCapReplacesTheAgentsCapOfTheSameKindAndKeepsTheOthers() {
        QuestionBudget agent = QuestionBudget.unlimited().withMaxScanBytes(1_000).withMaxMemoryBytes(2_000)
                .withDeadline(Duration.ofSeconds(5));
        QuestionBudget request = QuestionBudget.unlimited().withMaxMemoryBytes(500);
        QuestionBudget effective = agent.overriddenBy(request);

        assertThat(effective.maxScanBytes()).hasValue(1_000);
        assertThat(effective.maxMemoryBytes()).hasValue(500);
        assertThat(effective.deadline()).contains(Duration.ofSeconds(5));
        assertThat(effective).isEqualTo(QuestionBudget.unlimited().withDeadline(Duration.ofSeconds(5))
                .withMaxMemoryBytes(500).withMaxScanBytes(1_000));
        assertThat(effective).isNotEqualTo(agent);
        assertThat(effective.toString()).contains("maxScanBytes=1000").contains("maxMemoryBytes=500");
    }

    @Test
    void aCapOnAnEngineWithoutTheSettingFailsTheBuildNamingTheCapAndTheEngine() {
        SqlAgent.Builder b = agent().budget(QuestionBudget.unlimited().withMaxMemoryBytes(1 << 20));

        assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("maxMemoryBytes 1048576").hasMessageContaining("H2")
                .hasMessageContaining("enforced on TRINO").hasMessageContaining("(budget vs dataSource)");
    }

    @Test
    void aCapWithACustomExecutorFailsTheBuildEvenOnAnEngineThatHasTheSetting() {
        SqlAgent.Builder b = SqlAgent.builder().llm(llm).executor(s -> {
                    throw new AssertionError("never run");
                }).dialect(Dialect.TRINO).schema(dev.sqlagent.schema.SchemaCatalog.of(java.util.List.of()))
                .policy(GuardPolicy.allowingTables("orders"))
                .budget(QuestionBudget.unlimited().withMaxScanBytes(10));

        assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("maxScanBytes 10").hasMessageContaining("custom executor")
                .hasMessageContaining("(budget vs executor)");
    }

    @Test
    void onTrinoTheAgentsOwnExecutorEnforcesBothCaps() {
        QuestionBudget both = QuestionBudget.unlimited().withMaxScanBytes(1).withMaxMemoryBytes(1);

        assertThat(BuildChecks.unenforcedCaps(both, Dialect.TRINO, true)).isNull();
        assertThat(BuildChecks.unenforcedCaps(both, Dialect.POSTGRESQL, true))
                .contains("maxScanBytes 1 and maxMemoryBytes 1").contains("POSTGRESQL");
        assertThat(BuildChecks.unenforcedCaps(QuestionBudget.unlimited().withDeadline(Duration.ofSeconds(1)),
                Dialect.H2, false)).isNull();
    }

    @Test
    void aRequestCapTheAgentCannotEnforceIsRefusedBeforeTheQuestionRuns() {
        Question capped = Question.of("List the employees")
                .withBudget(QuestionBudget.unlimited().withMaxScanBytes(1_000_000));
        try (SqlAgent agent = agent().build()) {
            assertThatThrownBy(() -> agent.ask(capped)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("maxScanBytes 1000000").hasMessageContaining("H2")
                    .hasMessageContaining("(the request's budget)");
            // thrown by askAsync itself, not hidden in the future
            assertThatThrownBy(() -> agent.askAsync(capped)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> agent.query(Question.of("SELECT name FROM employees")
                    .withBudget(QuestionBudget.unlimited().withMaxMemoryBytes(1)))).isInstanceOf(
                    IllegalArgumentException.class).hasMessageContaining("maxMemoryBytes 1");

            assertThat(llm.callCount()).isZero();
            assertThat(agent.metrics().questions()).isZero();
            // a request budget without a cap still runs
            llm.enqueueFor(AgentRole.REFINER.id(), "SELECT name FROM employees");
            assertThat(agent.ask(Question.of("List the employees")
                    .withBudget(QuestionBudget.unlimited().withMaxModelCalls(3))).status())
                    .isEqualTo(AgentResult.Status.ANSWERED);
        }
    }

    @Test
    void theExecutorDoesNotRunAStatementWhoseCapTheEngineCannotEnforce() {
        JdbcSqlExecutor executor = JdbcSqlExecutor.builder(db.analyst()).build();
        RunScope question = new RunScope();
        question.capStatements(0, 1_000);
        ExecutionOutcome outcome;
        try (RunScope.Binding bound = question.bind()) {
            outcome = executor.execute(SqlStatement.of("SELECT name FROM employees"));
        }

        assertThat(outcome).isInstanceOf(ExecutionOutcome.Failure.class);
        assertThat(((ExecutionOutcome.Failure) outcome).error().message())
                .contains("cannot cap a statement's scanned bytes or memory").contains("maxMemoryBytes=1000");
        // outside a capped question the same executor runs it
        assertThat(executor.execute(SqlStatement.of("SELECT name FROM employees")))
                .isInstanceOf(ExecutionOutcome.Success.class);
    }

    @Test
    void negativeCapsNeverReachTheScope() {
        assertThatThrownBy(() -> new RunScope().capStatements(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
