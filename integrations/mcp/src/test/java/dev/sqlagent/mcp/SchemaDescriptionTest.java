package dev.sqlagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.schema.SchemaEnrichment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What describe shows: the host's descriptions and coded values, relations, and no other tenant's values. */
class SchemaDescriptionTest {

    private static SchemaCatalog catalog() {
        SchemaCatalog.Table customers = new SchemaCatalog.Table("customers", List.of(
                new SchemaCatalog.Column("id", "INT", false, ""),
                new SchemaCatalog.Column("name", "TEXT", false, "")), List.of("id"), List.of(), "");
        SchemaCatalog.Table orders = new SchemaCatalog.Table("orders", List.of(
                new SchemaCatalog.Column("id", "INT", false, ""),
                new SchemaCatalog.Column("customer_id", "INT", false, ""),
                new SchemaCatalog.Column("tenant_id", "INT", false, ""),
                new SchemaCatalog.Column("status", "TEXT", false, "")), List.of("id"),
                List.of(new SchemaCatalog.ForeignKey("customer_id", "customers", "id")), "");
        return SchemaCatalog.of(List.of(customers, orders)).enrich(SchemaEnrichment.builder()
                .describeTable("orders", "One row per order")
                .codedValues("orders", "status", Map.of("P", "paid", "O", "open"))
                .sampleValues("orders", "status", List.of("P", "O"))
                .sampleValues("customers", "name", List.of("Acme Rival Ltd"))
                .build());
    }

    @Test
    void showsDescriptionsCodedValuesAndRelations() {
        GuardPolicy p = GuardPolicy.allowingTables("orders", "customers");
        String text = SchemaDescription.text(SchemaDescription.shown(catalog(), p), p, Dialect.POSTGRESQL);
        assertThat(text).contains("One row per order", "paid", "customers", "Acme Rival Ltd", "At most 1000 rows");
        Map<String, Object> s = SchemaDescription.structured(catalog(), p, Dialect.POSTGRESQL);
        assertThat(s.toString()).contains("references_table=customers", "coded_values={");
    }

    @Test
    void aRowFilteredTableShowsNoSampleValuesReadFromOtherRows() {
        GuardPolicy tenant = GuardPolicy.builder().allowTables("orders", "customers").rowFilter("customers", "id", 7)
                .build();
        SchemaCatalog shown = SchemaDescription.shown(catalog(), tenant);
        assertThat(shown.enrichment().sampleValues("customers", "name")).isEmpty();
        assertThat(shown.enrichment().sampleValues("orders", "status")).containsExactly("P", "O");
        String text = SchemaDescription.text(shown, tenant, Dialect.POSTGRESQL);
        assertThat(text).doesNotContain("Acme Rival Ltd").contains("Rows are filtered for you on: customers.id");
    }
}
