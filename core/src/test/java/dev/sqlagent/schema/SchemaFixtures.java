package dev.sqlagent.schema;

import dev.sqlagent.schema.SchemaCatalog.Column;
import dev.sqlagent.schema.SchemaCatalog.ForeignKey;
import dev.sqlagent.schema.SchemaCatalog.Table;
import java.util.List;

/** Small hand-made catalogs for the schema tests. */
final class SchemaFixtures {

    private SchemaFixtures() {
    }

    static Column col(String name, String type) {
        return new Column(name, type, true, "");
    }

    /** The company schema of the MAC-SQL write-up, with declared keys. */
    static SchemaCatalog company() {
        return SchemaCatalog.of(List.of(
                new Table("regions", List.of(col("id", "INT"), col("region_name", "VARCHAR(20)")), List.of("id"), List.of(), ""),
                new Table("departments", List.of(col("id", "INT"), col("dept_name", "VARCHAR(40)")), List.of("id"), List.of(), ""),
                new Table("employees", List.of(col("id", "INT"), col("name", "VARCHAR(40)"), col("department_id", "INT"),
                        col("hire_date", "DATE")), List.of("id"), List.of(new ForeignKey("department_id", "departments", "id")), ""),
                new Table("employee_region", List.of(col("employee_id", "INT"), col("region_id", "INT")),
                        List.of("employee_id", "region_id"),
                        List.of(new ForeignKey("employee_id", "employees", "id"), new ForeignKey("region_id", "regions", "id")), ""),
                new Table("orders", List.of(col("id", "INT"), col("employee_id", "INT"), col("customer", "VARCHAR(60)"),
                        col("order_date", "DATE"), col("amount", "DECIMAL(12,2)"), col("status", "VARCHAR(12)")),
                        List.of("id"), List.of(new ForeignKey("employee_id", "employees", "id")), ""),
                new Table("audit_log", List.of(col("id", "INT"), col("event", "VARCHAR(80)")), List.of("id"), List.of(), "")));
    }

    /** The same schema without any declared foreign key. */
    static SchemaCatalog companyWithoutKeys() {
        List<Table> tables = new java.util.ArrayList<>();
        for (Table t : company().tables()) {
            tables.add(new Table(t.name(), t.columns(), t.primaryKey(), List.of(), t.remarks()));
        }
        return SchemaCatalog.of(tables);
    }
}
