package dev.sqlagent.schema;

import static dev.sqlagent.schema.SchemaFixtures.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.schema.SchemaCatalog.ForeignKey;
import dev.sqlagent.schema.SchemaCatalog.Table;
import java.util.List;
import org.junit.jupiter.api.Test;

class JoinGraphTest {

    @Test
    void declaredForeignKeysBecomeDeclaredEdges() {
        JoinGraph g = SchemaFixtures.company().joinGraph();
        assertThat(g.edgesOf("orders")).extracting(JoinGraph.Edge::toString)
                .containsExactly("orders.employee_id -> employees.id");
        assertThat(g.edges()).allMatch(JoinGraph.Edge::declared);
    }

    @Test
    void missingKeysAreInferredFromSingularAndPluralTableNames() {
        JoinGraph g = SchemaFixtures.companyWithoutKeys().joinGraph();
        assertThat(g.edges()).extracting(JoinGraph.Edge::toString).containsExactlyInAnyOrder(
                "employees.department_id -> departments.id (inferred)",
                "employee_region.employee_id -> employees.id (inferred)",
                "employee_region.region_id -> regions.id (inferred)",
                "orders.employee_id -> employees.id (inferred)");
    }

    @Test
    void sameNamedSpecificKeysAndRolePrefixesAreInferred() {
        SchemaCatalog c = SchemaCatalog.of(List.of(
                new Table("singer", List.of(col("Singer_ID", "INT"), col("Name", "TEXT")), List.of("Singer_ID"), List.of(), ""),
                new Table("singer_in_concert", List.of(col("concert_ID", "INT"), col("Singer_ID", "INT")),
                        List.of("concert_ID", "Singer_ID"), List.of(), ""),
                new Table("Addresses", List.of(col("address_id", "INT")), List.of("address_id"), List.of(), ""),
                new Table("Students", List.of(col("student_id", "INT"), col("current_address_id", "INT")),
                        List.of("student_id"), List.of(), ""),
                new Table("country", List.of(col("Code", "CHAR(3)")), List.of("Code"), List.of(), ""),
                new Table("city", List.of(col("ID", "INT"), col("CountryCode", "CHAR(3)")), List.of("ID"), List.of(), "")));
        assertThat(c.joinGraph().edges()).extracting(JoinGraph.Edge::toString).containsExactlyInAnyOrder(
                "singer_in_concert.Singer_ID -> singer.Singer_ID (inferred)",
                "Students.current_address_id -> Addresses.address_id (inferred)",
                "city.CountryCode -> country.Code (inferred)");
    }

    @Test
    void incompatibleTypesAreNotJoinedByName() {
        SchemaCatalog c = SchemaCatalog.of(List.of(
                new Table("employees", List.of(col("id", "INT")), List.of("id"), List.of(), ""),
                new Table("orders", List.of(col("id", "INT"), col("employee_id", "VARCHAR(20)")), List.of("id"), List.of(), "")));
        assertThat(c.joinGraph().edges()).isEmpty();
    }

    @Test
    void shortestPathPrefersDeclaredEdgesAmongEqualLengths() {
        // a -> b declared, a -> c inferred; both b and c reach d: path a-b-d wins although c is first
        SchemaCatalog c = SchemaCatalog.of(List.of(
                new Table("d", List.of(col("id", "INT")), List.of("id"), List.of(), ""),
                new Table("c", List.of(col("id", "INT"), col("d_id", "INT")), List.of("id"), List.of(), ""),
                new Table("b", List.of(col("id", "INT"), col("dref", "INT")), List.of("id"),
                        List.of(new ForeignKey("dref", "d", "id")), ""),
                new Table("a", List.of(col("id", "INT"), col("c_id", "INT"), col("bref", "INT")), List.of("id"),
                        List.of(new ForeignKey("bref", "b", "id")), "")));
        JoinGraph.Path p = c.joinGraph().shortestPath("a", "d").orElseThrow();
        assertThat(p.tables()).containsExactly("a", "b", "d");
        assertThat(p.inferredEdges()).isZero();
        assertThat(JoinGraph.declaredOnly(c).shortestPath("a", "c")).isEmpty();
        assertThat(c.joinGraph().shortestPath("a", "c").orElseThrow().inferredEdges()).isEqualTo(1);
    }

    @Test
    void shortestPathGoesThroughTheBridgeTable() {
        JoinGraph g = SchemaFixtures.company().joinGraph();
        assertThat(g.shortestPath("ORDERS", "regions").orElseThrow().tables())
                .containsExactly("orders", "employees", "employee_region", "regions");
        assertThat(g.shortestPath("orders", "orders").orElseThrow().length()).isZero();
        assertThat(g.shortestPath("orders", "audit_log")).isEmpty();
        assertThat(g.shortestPath("orders", "nope")).isEmpty();
    }

    @Test
    void neighboursAreListedInCatalogOrder() {
        assertThat(SchemaFixtures.company().joinGraph().neighbours("employees"))
                .containsExactly("departments", "employee_region", "orders");
    }
}
