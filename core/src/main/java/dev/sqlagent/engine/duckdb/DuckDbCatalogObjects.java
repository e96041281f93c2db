package dev.sqlagent.engine.duckdb;

import dev.sqlagent.engine.ObjectRows;
import dev.sqlagent.guard.DatabaseObjects.Kind;
import dev.sqlagent.guard.DatabaseObjects.Routine;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** DuckDB's own functions and macros, from {@code duckdb_functions()}. */
final class DuckDbCatalogObjects {

    private DuckDbCatalogObjects() {
    }

    static void read(Statement s, List<Routine> routines) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT schema_name, function_name, function_type, "
                + "CAST(parameter_types AS VARCHAR[]) FROM duckdb_functions() WHERE NOT internal")) {
            while (rs.next()) {
                String type = rs.getString(3);
                Kind kind = switch (type == null ? "" : type) {
                    case "macro" -> Kind.MACRO;
                    case "table_macro" -> Kind.TABLE_MACRO;
                    case "aggregate" -> Kind.AGGREGATE;
                    default -> Kind.FUNCTION;
                };
                List<String> args = new ArrayList<>();
                java.sql.Array a = rs.getArray(4);
                if (a != null) {
                    for (Object o : (Object[]) a.getArray()) {
                        args.add(o == null ? "any" : o.toString());
                    }
                }
                routines.add(ObjectRows.routine(kind, rs.getString(1), rs.getString(2), String.join(",", args)));
            }
        }
    }
}
