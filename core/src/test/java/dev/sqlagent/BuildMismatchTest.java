package dev.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.metrics.MetricTool;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code build()} refuses settings that build but would make every question fail or be silently ignored,
 * naming the fields; each case builds once the mismatch is removed.
 */
class BuildMismatchTest {

    private final CompanyDatabase db = CompanyDatabase.create();
    private final GuardPolicy companyPolicy = GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES);

    private static SchemaCatalog schemaOf(String... tables) {
        List<SchemaCatalog.Table> list = new java.util.ArrayList<>();
        for (String t : tables) {
            list.add(new SchemaCatalog.Table(t, List.of(new SchemaCatalog.Column("id", "INTEGER", false, "")),
                    List.of("id"), List.of(), ""));
        }
        return SchemaCatalog.of(list);
    }

    private SqlAgent.Builder custom() {
        return SqlAgent.builder().llm(ScriptedLlm.create()).executor(sql -> {
            throw new UnsupportedOperationException();
        }).dialect(Dialect.H2);
    }

    @Test
    void aQueryTimeoutWithACustomExecutorIsNeverApplied() {
        SqlAgent.Builder b = custom().schema(schemaOf("orders")).policy(GuardPolicy.allowingTables("orders"))
                .queryTimeout(Duration.ofSeconds(5));

        assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class)
                .hasMessage("queryTimeout PT5S is never applied: it bounds the executor built from dataSource(...),"
                        + " and a custom executor bounds its own queries (queryTimeout vs executor)");
        assertThat(SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(db.analyst()).policy(companyPolicy)
                .queryTimeout(Duration.ofSeconds(5)).build()).isNotNull();
    }

    @Test
    void aSchemaWithNoTableOfThePolicyIsRefused() {
        SqlAgent.Builder b = custom().schema(schemaOf("orders", "customers")).policy(GuardPolicy.allowingTables("invoices"));

        assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class)
                .hasMessage("the schema has no table the policy allows, so every question would be rejected: schema"
                        + " tables [customers, orders] vs policy.allowedTables [invoices] (schema vs policy)");
        // one allowed table more that the schema lacks is refused too: the policy is closed-world
        assertThatThrownBy(() -> custom().schema(schemaOf("orders", "customers")).policy(
                GuardPolicy.allowingTables("invoices", "ORDERS")).build())
                .isInstanceOf(dev.sqlagent.guard.PolicyResolutionException.class).hasMessageContaining("invoices");
        assertThat(custom().schema(schemaOf("orders", "customers")).policy(GuardPolicy.allowingTables("ORDERS"))
                .build()).isNotNull();
        assertThat(custom().schema(schemaOf("orders")).policy(GuardPolicy.allowingTables("public.orders")).build())
                .as("one side schema-qualified").isNotNull();
    }

    @Test
    void aMetricToolThePolicyRefusesIsRefused() {
        MetricTool salaries = MetricTool.builder("total_salaries").description("sum of salaries")
                .sql("SELECT SUM(salary) AS total FROM salary_detail").build();
        SqlAgent.Builder b = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(db.analyst())
                .policy(companyPolicy).metricTool(salaries);

        assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("metric 'total_salaries' is refused by the guard under the agent's policy,"
                        + " so it could never answer: TABLE_NOT_ALLOWED")
                .hasMessageContaining("(metricTool vs policy [");
        MetricTool paid = MetricTool.builder("paid_orders").description("paid orders")
                .sql("SELECT COUNT(*) AS n FROM orders WHERE status = :status")
                .parameter("status", MetricTool.Type.STRING, "order status").build();
        assertThat(SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(db.analyst()).policy(companyPolicy)
                .metricTool(paid).build()).isNotNull();
    }
}
