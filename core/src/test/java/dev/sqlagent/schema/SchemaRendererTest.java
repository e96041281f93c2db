package dev.sqlagent.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchemaRendererTest {

    private static SchemaCatalog enriched() {
        Map<String, String> status = new LinkedHashMap<>();
        status.put("paid", "paid");
        status.put("cancelled", "cancelled");
        return SchemaFixtures.company().enrich(SchemaEnrichment.builder()
                .describeTable("orders", "one row per order")
                .describeColumn("orders", "amount", "order value in yuan, tax included")
                .codedValues("orders", "status", status)
                .synonym("销售额", "orders.amount")
                .synonym("revenue", "orders.amount")
                .synonym("部门", "departments")
                .sampleValues("orders", "customer", List.of("Acme", "O'Hara"))
                .build());
    }

    @Test
    void ddlShowsDescriptionsCodedValuesTermsSamplesAndKeys() {
        RenderedSchema r = SchemaRenderer.ddl().render(enriched(), 10_000);
        assertThat(r.omitted()).isEmpty();
        assertThat(r.text()).contains("-- one row per order\nCREATE TABLE orders (id INT, employee_id INT, "
                + "customer VARCHAR(60) /* e.g. 'Acme', 'O''Hara' */, order_date DATE, "
                + "amount DECIMAL(12,2) /* order value in yuan, tax included, also called: 销售额, revenue */, "
                + "status VARCHAR(12) /* values: paid=paid, cancelled=cancelled */, PRIMARY KEY (id), "
                + "FOREIGN KEY (employee_id) REFERENCES employees (id));");
        assertThat(r.text()).contains("-- also called: 部门\nCREATE TABLE departments");
        assertThat(r.estimatedTokens()).isEqualTo(TokenEstimator.heuristic().estimate(r.text()));
    }

    @Test
    void markdownShowsOneRowPerColumnWithKeysAndNotes() {
        String text = SchemaRenderer.markdown().render(enriched(), 10_000).text();
        assertThat(text).contains("### orders\none row per order\n| column | type | notes |\n|---|---|---|\n"
                + "| id | INT | primary key |\n| employee_id | INT | → employees.id |\n");
        assertThat(text).contains("| status | VARCHAR(12) | values: paid=paid, cancelled=cancelled |");
    }

    @Test
    void inferredJoinsAreMarkedAsSuch() {
        String text = SchemaRenderer.ddl().render(SchemaFixtures.companyWithoutKeys(), 10_000).text();
        assertThat(text).contains("FOREIGN KEY (employee_id) REFERENCES employees (id) /* inferred */");
        String without = SchemaRenderer.builder().inferredJoins(false).build()
                .render(SchemaFixtures.companyWithoutKeys(), 10_000).text();
        assertThat(without).doesNotContain("FOREIGN KEY");
    }

    @Test
    void aSelectionKeepsItsKeyColumnsAndOnlyTheJoinsBetweenSelectedTables() {
        Map<String, Set<String>> selection = new LinkedHashMap<>();
        selection.put("orders", Set.of("amount"));
        selection.put("EMPLOYEES", Set.of("name"));
        String text = SchemaRenderer.ddl().render(SchemaFixtures.company(), selection, 10_000).text();
        assertThat(text).isEqualTo("CREATE TABLE employees (id INT, name VARCHAR(40), PRIMARY KEY (id));\n"
                + "CREATE TABLE orders (id INT, employee_id INT, amount DECIMAL(12,2), PRIMARY KEY (id), "
                + "FOREIGN KEY (employee_id) REFERENCES employees (id));\n");
    }

    @Test
    void aSelectionNamingAnUnknownColumnIsRefused() {
        assertThatThrownBy(() -> SchemaRenderer.ddl().render(SchemaFixtures.company(), Map.of("orders", Set.of("nope")), 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("orders.nope");
        assertThatThrownBy(() -> SchemaRenderer.ddl().render(SchemaFixtures.company(), -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }

    @Test
    void samplesAreCutFirstThenDescriptionsThenColumnsOfTheLeastConnectedTables() {
        SchemaCatalog catalog = enriched();
        int full = SchemaRenderer.ddl().render(catalog, 10_000).estimatedTokens();
        RenderedSchema r = SchemaRenderer.ddl().render(catalog, full - 1);
        assertThat(r.omitted()).containsExactly("sample values of orders");
        assertThat(r.text()).doesNotContain("Acme").contains("values: paid=paid");

        RenderedSchema tight = SchemaRenderer.ddl().render(catalog, full * 3 / 4);
        assertThat(tight.omitted()).startsWith("sample values of orders", "column descriptions of orders",
                "description of table orders", "description of table departments", "coded values of orders",
                "column audit_log.event", "column orders.status");
        // audit_log joins nothing, so it loses its columns first; key columns stay as long as the table
        assertThat(tight.text()).contains("CREATE TABLE audit_log (id INT, PRIMARY KEY (id));");
        assertThat(tight.estimatedTokens()).isLessThanOrEqualTo(full * 3 / 4);
    }

    @Test
    void cutsComeInOrderOfNeedAtEveryBudget() {
        SchemaCatalog catalog = enriched();
        List<String> kinds = List.of("sample values", "column descriptions", "description of table", "coded values",
                "column ", "table ");
        for (int budget = 0; budget < 300; budget += 7) {
            int last = -1;
            for (String o : SchemaRenderer.ddl().render(catalog, budget).omitted()) {
                int rank = -1;
                for (int k = 0; k < kinds.size() && rank < 0; k++) {
                    if (o.startsWith(kinds.get(k))) {
                        rank = k;
                    }
                }
                assertThat(rank).as("%s after rank %d at budget %d", o, last, budget).isGreaterThanOrEqualTo(last);
                last = rank;
            }
        }
    }

    @Test
    void nothingFitsInAZeroBudget() {
        RenderedSchema r = SchemaRenderer.markdown().render(enriched(), 0);
        assertThat(r.text()).isEmpty();
        assertThat(r.estimatedTokens()).isZero();
        assertThat(r.omitted()).contains("table orders", "table employees");
    }

    @Test
    void aRenderNeverExceedsItsBudget() {
        SchemaCatalog catalog = enriched();
        Random random = new Random(42);
        for (SchemaRenderer renderer : List.of(SchemaRenderer.ddl(), SchemaRenderer.markdown())) {
            int full = renderer.render(catalog, Integer.MAX_VALUE).estimatedTokens();
            for (int budget = 0; budget <= full + 5; budget++) {
                RenderedSchema r = renderer.render(catalog, budget);
                assertThat(r.estimatedTokens()).as("budget %d", budget).isLessThanOrEqualTo(budget)
                        .isEqualTo(renderer.estimator().estimate(r.text()));
            }
            for (int i = 0; i < 200; i++) {
                int budget = random.nextInt(full * 2 + 1);
                Map<String, Set<String>> selection = new LinkedHashMap<>();
                for (SchemaCatalog.Table t : catalog.tables()) {
                    if (random.nextBoolean()) {
                        selection.put(t.name(), random.nextBoolean() ? Set.of() : Set.of(t.columns().get(t.columns().size() - 1).name()));
                    }
                }
                RenderedSchema r = renderer.render(catalog, selection, budget);
                assertThat(r.estimatedTokens()).as("budget %d, selection %s", budget, selection).isLessThanOrEqualTo(budget);
            }
        }
    }

    @Test
    void aNonAdditiveEstimatorStillGetsATextWithinBudget() {
        // counts characters, so joining tables costs what the parts did not announce
        TokenEstimator chars = CharSequence::length;
        SchemaRenderer renderer = SchemaRenderer.builder().estimator(chars).build();
        for (int budget : new int[] {0, 10, 50, 100, 200, 400, 800}) {
            RenderedSchema r = renderer.render(enriched(), budget);
            assertThat(r.text().length()).isLessThanOrEqualTo(budget);
        }
    }
}
