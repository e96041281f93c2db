package dev.sqlagent.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchemaCompletionTest {

    private static Map<String, Set<String>> chosen(Object... tableThenColumns) {
        Map<String, Set<String>> m = new LinkedHashMap<>();
        for (int i = 0; i < tableThenColumns.length; i += 2) {
            @SuppressWarnings("unchecked")
            Set<String> cols = (Set<String>) tableThenColumns[i + 1];
            m.put((String) tableThenColumns[i], cols);
        }
        return m;
    }

    @Test
    void checkDropsAndReportsNamesTheCatalogLacks() {
        SchemaCompletion.CheckedSelection c = SchemaCompletion.of(SchemaFixtures.company()).check(chosen(
                "\"ORDERS\"", Set.of("o.amount", "`status`", "revenue", "*"),
                "public.employees", Set.of(),
                "salesmen", Set.of("id")));
        assertThat(c.selection()).containsOnlyKeys("employees", "orders");
        assertThat(c.selection().get("orders")).containsExactly("amount", "status");
        assertThat(c.unknown()).containsExactlyInAnyOrder("column orders.revenue", "table salesmen");
    }

    @Test
    void bridgeTablesAndJoinKeysAreAddedBetweenChosenTables() {
        SchemaCompletion.CompletedSelection done = SchemaCompletion.of(SchemaFixtures.company())
                .complete("2023 年华东区的销售额", chosen("orders", Set.of("amount", "order_date"), "regions", Set.of("region_name")));
        assertThat(done.selection()).containsOnlyKeys("regions", "employees", "employee_region", "orders");
        assertThat(done.addedTables()).containsExactly("employees", "employee_region");
        assertThat(done.selection().get("orders")).containsExactly("employee_id", "order_date", "amount");
        assertThat(done.selection().get("employee_region")).containsExactly("employee_id", "region_id");
        assertThat(done.notes()).anyMatch(n -> n.startsWith("added table employees: it joins"))
                .anyMatch(n -> n.equals("added column orders.employee_id: join key orders.employee_id -> employees.id"));
    }

    @Test
    void theSameSelectionIsCompletedTheSameWayWhateverTheOrderChosen() {
        SchemaCompletion completion = SchemaCompletion.of(SchemaFixtures.companyWithoutKeys());
        var a = completion.complete("", chosen("regions", Set.of(), "orders", Set.of(), "departments", Set.of()));
        var b = completion.complete("", chosen("departments", Set.of(), "orders", Set.of(), "regions", Set.of()));
        assertThat(a).isEqualTo(b);
        assertThat(a.selection()).containsOnlyKeys("regions", "departments", "employees", "employee_region", "orders");
    }

    @Test
    void aDimensionTableTheQuestionGroupsByIsAdded() {
        SchemaCatalog catalog = SchemaFixtures.company().enrich(SchemaEnrichment.builder()
                .synonym("部门", "departments").build());
        SchemaCompletion completion = SchemaCompletion.of(catalog);
        var zh = completion.complete("2023 年华东区每个部门中销售额最高的员工是谁",
                chosen("orders", Set.of("amount"), "employees", Set.of("name"), "regions", Set.of("region_name")));
        assertThat(zh.addedTables()).containsExactly("departments", "employee_region");
        assertThat(zh.selection().get("departments")).containsExactly("id", "dept_name");
        assertThat(zh.selection().get("employees")).contains("department_id");
        assertThat(zh.notes()).anyMatch(n -> n.startsWith("added table departments: the question groups by it (\"部门\" after a grouping word)"));

        var en = completion.complete("total order amount per department", chosen("orders", Set.of("amount"), "employees", Set.of()));
        assertThat(en.addedTables()).containsExactly("departments");
        var by = completion.complete("按部门分组统计订单金额", chosen("orders", Set.of("amount"), "employees", Set.of()));
        assertThat(by.addedTables()).containsExactly("departments");
    }

    @Test
    void noDimensionIsAddedWithoutAGroupingWordOrWhenSortingBy() {
        SchemaCompletion completion = SchemaCompletion.of(SchemaFixtures.company());
        assertThat(completion.complete("orders of the sales department", chosen("orders", Set.of(), "employees", Set.of()))
                .addedTables()).isEmpty();
        assertThat(completion.complete("list orders ordered by department", chosen("orders", Set.of(), "employees", Set.of()))
                .addedTables()).isEmpty();
        // a table not next to the selection is not a dimension of it
        assertThat(completion.complete("amount for each region", chosen("orders", Set.of())).addedTables()).isEmpty();
    }

    @Test
    void aDimensionNamedAwayFromTheGroupingWordIsKeptButNotedAsUnsure() {
        var done = SchemaCompletion.of(SchemaFixtures.company())
                .complete("for each employee, the amount of orders in their department", chosen("orders", Set.of(), "employees", Set.of()));
        assertThat(done.addedTables()).containsExactly("departments");
        assertThat(done.notes()).anyMatch(n -> n.contains("unsure, kept"));
    }

    @Test
    void unconnectedTablesAreLeftAsChosenWithANote() {
        var done = SchemaCompletion.of(SchemaFixtures.company()).complete("", chosen("orders", Set.of(), "audit_log", Set.of()));
        assertThat(done.selection()).containsOnlyKeys("orders", "audit_log");
        assertThat(done.notes()).anyMatch(n -> n.contains("no join path connects"));
    }

    @Test
    void theCompletedSelectionRendersWithinBudget() {
        SchemaCatalog catalog = SchemaFixtures.company();
        var done = SchemaCompletion.of(catalog).complete("", chosen("orders", Set.of("amount"), "regions", Set.of()));
        RenderedSchema r = SchemaRenderer.ddl().render(catalog, done.selection(), 60);
        assertThat(r.estimatedTokens()).isLessThanOrEqualTo(60);
        assertThat(List.of(r.text().split("\n"))).hasSizeLessThanOrEqualTo(4);
    }
}
