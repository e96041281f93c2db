package dev.sqlagent.examples.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.AgentRole;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import org.junit.jupiter.api.Test;

/**
 * The test kit takes the agent's {@link AgentRole} constants without depending on core (core's tests
 * depend on the kit); here, where both are on the class path, the two must agree on every role's id.
 */
class ScriptedLlmAgentRoleTest {

    @Test
    void everyAgentRoleMapsToTheIdTheAgentPutsInItsRequests() {
        for (AgentRole role : AgentRole.values()) {
            assertThat(ScriptedLlm.roleId(role)).as(role.name()).isEqualTo(role.id());
        }
    }

    @Test
    void anAgentIsAnsweredFromTheQueueOfItsRoleConstant() {
        CompanyDatabase db = CompanyDatabase.create();
        ScriptedLlm llm = ScriptedLlm.create()
                .enqueueFor(AgentRole.REFINER, "SELECT nme FROM employees")
                .enqueueFor(AgentRole.REFINER, "SELECT name FROM employees");
        try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).build()) {
            AgentResult result = agent.ask("Who works here?");

            assertThat(result.status()).isEqualTo(AgentResult.Status.ANSWERED);
            assertThat(result.corrected()).isTrue();
            assertThat(llm.requests(AgentRole.REFINER)).hasSize(2);
            assertThat(llm.remaining()).isZero();
        }
    }
}
