package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeReport;
import dev.sqlagent.testkit.ScriptedLlm;
import dev.sqlagent.testkit.CompanyDatabase;
import org.junit.jupiter.api.Test;

/** The builder's {@code engineCheck} option and {@link SqlAgent#audit()}. */
class EngineCheckOptionTest {

    private final CompanyDatabase db = CompanyDatabase.create();

    private SqlAgent.Builder agent() {
        return SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(db.analyst())
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES));
    }

    @Test
    void theEngineCheckIsOnByDefaultWithADataSourceAndCanBeTurnedOff() {
        assertThat(agent().build().engineCheck()).isNotNull();
        assertThat(agent().build().engineCheck().dialect()).isEqualTo(Dialect.H2);
        assertThat(agent().engineCheck(false).build().engineCheck()).isNull();
        assertThat(agent().build().toBuilder().engineCheck(false).build().engineCheck()).isNull();
    }

    @Test
    void auditReportsTheAnalystCanReadTheTableThePolicyLeavesOut() throws Exception {
        PrivilegeReport report = agent().build().audit();
        assertThat(report.writes()).isEmpty();
        assertThat(report.forbiddenTables()).containsExactly("public.salary_detail");
        assertThat(report.guardIsOnlyDefence()).isTrue();
        assertThat(report.toText()).contains("salary_detail", "MORE PRIVILEGE");
    }

    @Test
    void auditNeedsADatabase() throws Exception {
        SqlAgent custom = SqlAgent.builder().llm(ScriptedLlm.create()).executor(s -> {
                    throw new UnsupportedOperationException();
                }).dialect(Dialect.H2).schema(dev.sqlagent.schema.SchemaCatalog.introspect(db.analyst(),
                        GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)))
                .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).build();
        assertThat(custom.engineCheck()).isNull();
        assertThatThrownBy(custom::audit).isInstanceOf(IllegalStateException.class).hasMessageContaining("dataSource");
    }
}
