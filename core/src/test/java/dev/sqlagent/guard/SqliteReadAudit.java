package dev.sqlagent.guard;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * An independent check of what a SQL does on SQLite, from SQLite's own compiled program: sqlite-jdbc
 * exposes no authorizer hook, so the audit reads {@code EXPLAIN}'s bytecode instead. Every b-tree the
 * program opens ({@code OpenRead} with its root page, mapped to the table it belongs to through
 * {@code sqlite_schema}, indexes included, views already expanded by SQLite), every function it calls
 * (the {@code Function}/{@code AggStep}/… opcodes name them), and any opcode that writes or opens a
 * virtual table. It knows nothing of the guard's parser.
 */
final class SqliteReadAudit {

    private static final Set<String> FUNCTION_OPCODES = Set.of("Function", "PureFunc", "Function0", "PureFunc0",
            "AggStep", "AggStep1", "AggStep0", "AggFinal", "AggValue", "AggInverse");
    private static final Set<String> FORBIDDEN_OPCODES = Set.of("OpenWrite", "VOpen", "VCreate", "VDestroy",
            "VUpdate", "Destroy", "Clear", "CreateBtree", "ParseSchema", "Vacuum", "IncrVacuum", "SqlExec",
            "VBegin", "VFilter", "Program", "DropTable", "DropIndex", "DropTrigger", "LoadAnalysis");

    /** What a program reads, calls and whether it writes. */
    record Audit(Set<String> tables, Set<String> functions, Set<String> forbidden) {
    }

    private SqliteReadAudit() {
    }

    static Map<Integer, String> rootPages(Connection c) throws SQLException {
        Map<Integer, String> pages = new HashMap<>();
        pages.put(1, "sqlite_schema");
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT rootpage, tbl_name FROM sqlite_schema WHERE rootpage > 0")) {
            while (rs.next()) {
                pages.put(rs.getInt(1), rs.getString(2).toLowerCase(Locale.ROOT));
            }
        }
        return pages;
    }

    /** @throws SQLException if SQLite refuses to compile the SQL (then it cannot run either) */
    static Audit audit(Connection c, Map<Integer, String> pages, String sql, List<Object> params) throws SQLException {
        Set<String> tables = new LinkedHashSet<>();
        Set<String> functions = new LinkedHashSet<>();
        Set<String> forbidden = new LinkedHashSet<>();
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql)) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String op = rs.getString(2);
                    int p2 = rs.getInt(4);
                    int p3 = rs.getInt(5);
                    String p4 = rs.getString(6);
                    if (op.equals("OpenRead") || op.equals("ReopenIdx")) {
                        tables.add(p3 == 0 ? pages.getOrDefault(p2, "page:" + p2) : "database:" + p3);
                    } else if (FUNCTION_OPCODES.contains(op) && p4 != null) {
                        int paren = p4.indexOf('(');
                        functions.add((paren < 0 ? p4 : p4.substring(0, paren)).toLowerCase(Locale.ROOT));
                    } else if (FORBIDDEN_OPCODES.contains(op) || op.equals("Transaction") && p2 != 0) {
                        forbidden.add(op);
                    }
                }
            }
        }
        return new Audit(tables, functions, forbidden);
    }
}
