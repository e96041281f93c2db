package dev.sqlagent.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.CompanyDatabase;
import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchemaEnrichmentTest {

    @Test
    void enrichingReturnsANewCatalogAndLeavesTheOldOneAlone() {
        SchemaCatalog plain = SchemaFixtures.company();
        SchemaCatalog rich = plain.enrich(SchemaEnrichment.builder().describeTable("ORDERS", "one row per order").build());
        assertThat(plain.enrichment().isEmpty()).isTrue();
        assertThat(rich.enrichment().tableDescription("orders")).contains("one row per order");
        assertThat(rich.tables()).isEqualTo(plain.tables());
        assertThat(rich.renderDdl()).isEqualTo(plain.renderDdl());
    }

    @Test
    void laterEnrichmentsReplaceDescriptionsAndAddSynonyms() {
        SchemaCatalog c = SchemaFixtures.company()
                .enrich(SchemaEnrichment.builder().describeColumn("orders", "amount", "old").synonym("销售额", "orders.amount").build())
                .enrich(SchemaEnrichment.builder().describeColumn("orders", "amount", "new").synonym("sales", "orders.amount").build());
        assertThat(c.enrichment().columnDescription("orders", "AMOUNT")).contains("new");
        assertThat(c.enrichment().termsFor("orders", "amount")).containsExactly("销售额", "sales");
    }

    @Test
    void numericCodesAreKeptInNumericOrder() {
        SchemaEnrichment e = SchemaEnrichment.builder()
                .codedValues("orders", "status", Map.of(10, "refunded", 2, "cancelled", 1, "paid")).build();
        assertThat(e.codedValues("orders", "status").keySet()).containsExactly("1", "2", "10");
    }

    @Test
    void namesTheDatabaseLacksAreRefusedAndBadValuesAreNamed() {
        SchemaCatalog c = SchemaFixtures.company();
        assertThatThrownBy(() -> c.enrich(SchemaEnrichment.builder().describeTable("salesmen", "x").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("salesmen");
        assertThatThrownBy(() -> c.enrich(SchemaEnrichment.builder().synonym("revenue", "orders.revenue").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("orders.revenue");
        assertThatThrownBy(() -> SchemaEnrichment.builder().describeTable("orders", " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("description must not be blank but was \" \"");
        assertThatThrownBy(() -> SchemaEnrichment.builder().synonym("x", "a.b.c"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a.b.c");
    }

    @Test
    void whatConcernsATableOutsideThePolicyIsDropped() throws SQLException {
        CompanyDatabase db = CompanyDatabase.create();
        SchemaCatalog c = SchemaCatalog.introspect(db.admin(), GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES));
        assertThat(c.databaseHasTable("salary_detail")).isTrue();
        SchemaCatalog rich = c.enrich(SchemaEnrichment.builder()
                .describeTable("salary_detail", "pay per month")
                .synonym("工资", "salary_detail.base_salary")
                .synonym("员工", "employees")
                .build());
        assertThat(rich.enrichment().tableDescription("salary_detail")).isEmpty();
        assertThat(rich.enrichment().synonyms()).containsOnlyKeys("员工");
        assertThat(SchemaRenderer.ddl().render(rich, 10_000).text()).doesNotContain("salary").doesNotContain("工资");
    }

    @Test
    void introspectedCatalogsKnowTheirColumnsAndJoins() throws SQLException {
        CompanyDatabase db = CompanyDatabase.create();
        SchemaCatalog c = SchemaCatalog.introspect(db.admin(), GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES));
        assertThat(c.column("ORDERS", "Amount")).isPresent();
        assertThat(c.column("orders", "nope")).isEmpty();
        assertThat(c.joinGraph()).isSameAs(c.joinGraph());
        assertThat(c.joinGraph().shortestPath("ORDERS", "REGIONS").orElseThrow().length()).isEqualTo(3);
        assertThat(SchemaCompletion.of(c).check(Map.of("orders", Set.of("amount"))).selection()).containsKey("ORDERS");
    }
}
