package dev.sqlagent.guard.engine;

import dev.sqlagent.execution.SqlStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * SQLite's reading of a statement, from the bytecode {@code EXPLAIN} shows (sqlite-jdbc has no
 * authorizer hook). Every b-tree the program opens ({@code OpenRead} with its root page, mapped through
 * {@code sqlite_schema} to its table, indexes included, views already expanded by SQLite), every column
 * it takes from a table or index cursor ({@code Column}; {@code Rowid} as the integer primary key it
 * aliases; the keys of an index seek), every function it calls ({@code Function}, {@code AggStep}, …) and
 * any opcode that writes, opens a virtual table or starts a write transaction. It knows nothing of the
 * guard's parser.
 */
final class SqliteReader implements PlanReader {

    private static final Set<String> FUNCTION_OPCODES = Set.of("Function", "PureFunc", "Function0", "PureFunc0",
            "AggStep", "AggStep1", "AggStep0", "AggFinal", "AggValue", "AggInverse");
    private static final Set<String> FORBIDDEN_OPCODES = Set.of("OpenWrite", "VOpen", "VCreate", "VDestroy",
            "VUpdate", "Destroy", "Clear", "CreateBtree", "ParseSchema", "Vacuum", "IncrVacuum", "SqlExec",
            "VBegin", "VFilter", "Program", "DropTable", "DropIndex", "DropTrigger", "LoadAnalysis");
    private static final Set<String> SEEK_OPCODES = Set.of("SeekGE", "SeekGT", "SeekLE", "SeekLT", "IdxGE",
            "IdxGT", "IdxLE", "IdxLT", "Found", "NotFound", "NoConflict");

    /** One instruction of the program. */
    private record Op(String op, int p1, int p2, int p3, String p4) {
    }

    /** One b-tree: a table, or an index of one. */
    record BTree(String table, String index, List<String> columns, String rowidColumn) {
    }

    /** The schema as root pages, read once per database file and schema version. */
    record Catalog(String file, int schemaVersion, Map<Integer, BTree> pages) {
    }

    private volatile Catalog catalog;

    @Override
    public EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException {
        Catalog cat = catalog(c);
        Set<EngineReading.Table> tables = new LinkedHashSet<>();
        Set<EngineReading.ColumnRead> columns = new LinkedHashSet<>();
        Set<String> functions = new LinkedHashSet<>();
        Set<String> writes = new LinkedHashSet<>();
        Map<Integer, BTree> cursors = new HashMap<>();
        Map<Integer, EngineReading.Table> cursorTables = new HashMap<>();
        try (PreparedStatement ps = Explain.prepare(c, "EXPLAIN ", statement, timeoutSeconds)) {
            List<Op> program = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    program.add(new Op(rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getInt(5), rs.getString(6)));
                }
            }
            // registers whose row id only positions a cursor (SeekRowid, NotExists) or fills a row set
            Set<Integer> seekRegisters = new java.util.HashSet<>();
            for (Op o : program) {
                if (o.op().equals("SeekRowid") || o.op().equals("NotExists") || o.op().equals("RowSetTest")) {
                    seekRegisters.add(o.p3());
                } else if (o.op().equals("RowSetAdd")) {
                    seekRegisters.add(o.p2());
                }
            }
            {
                for (Op o : program) {
                    String op = o.op();
                    int p1 = o.p1();
                    int p2 = o.p2();
                    int p3 = o.p3();
                    String p4 = o.p4();
                    if (op.equals("OpenRead") || op.equals("ReopenIdx")) {
                        EngineReading.Table t;
                        BTree tree = null;
                        if (p3 == 0) {
                            tree = cat.pages().get(p2);
                            t = new EngineReading.Table("main", tree == null ? "page:" + p2 : tree.table(), true);
                        } else {
                            t = new EngineReading.Table(p3 == 1 ? "temp" : "database:" + p3, "page:" + p2, false);
                        }
                        tables.add(t);
                        cursorTables.put(p1, t);
                        if (tree != null) {
                            cursors.put(p1, tree);
                        }
                    } else if (op.equals("Column")) {
                        column(cursors, cursorTables, p1, p2, columns);
                    } else if ((op.equals("Rowid") || op.equals("IdxRowid")) && !seekRegisters.contains(p2)) {
                        // the row id as a value: the integer primary key it aliases, if the table has one (a
                        // table without one has no column the row id could leak); a row id that only
                        // positions another cursor (SeekRowid, NotExists, DeferredSeek, a row set) is the
                        // engine's own and not counted
                        BTree tree = cursors.get(p1);
                        if (tree != null && tree.rowidColumn() != null) {
                            columns.add(new EngineReading.ColumnRead(cursorTables.get(p1), tree.rowidColumn()));
                        }
                    } else if (SEEK_OPCODES.contains(op)) {
                        BTree tree = cursors.get(p1);
                        if (tree != null && tree.index() != null) {
                            int keys = parseInt(p4, 0);
                            keys = keys <= 0 ? tree.columns().size() : keys;
                            for (int i = 0; i < keys && i < tree.columns().size(); i++) {
                                column(cursors, cursorTables, p1, i, columns);
                            }
                        }
                    } else if (FUNCTION_OPCODES.contains(op) && p4 != null) {
                        int paren = p4.indexOf('(');
                        functions.add((paren < 0 ? p4 : p4.substring(0, paren)).toLowerCase(Locale.ROOT));
                    } else if (FORBIDDEN_OPCODES.contains(op) || op.equals("Transaction") && p2 != 0) {
                        writes.add(op);
                    }
                }
            }
        }
        return new EngineReading(tables, columns, functions, writes, true);
    }

    private static void column(Map<Integer, BTree> cursors, Map<Integer, EngineReading.Table> cursorTables, int cursor,
                               int index, Set<EngineReading.ColumnRead> out) {
        BTree tree = cursors.get(cursor);
        if (tree == null) {
            return; // an ephemeral, sorter or pseudo cursor: its values came from a real cursor first
        }
        String name = index >= 0 && index < tree.columns().size() ? tree.columns().get(index) : "column#" + index;
        out.add(new EngineReading.ColumnRead(cursorTables.get(cursor), name));
    }

    private static int parseInt(String s, int fallback) {
        try {
            return s == null ? fallback : Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    Catalog catalog(Connection c) throws SQLException {
        int version;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA schema_version")) {
            version = rs.next() ? rs.getInt(1) : -1;
        }
        String file = "";
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT file FROM pragma_database_list WHERE name = 'main'")) {
            if (rs.next() && rs.getString(1) != null) {
                file = rs.getString(1);
            }
        }
        Catalog cat = catalog;
        if (cat != null && !file.isEmpty() && cat.file().equals(file) && cat.schemaVersion() == version) {
            return cat;
        }
        cat = new Catalog(file, version, pages(c));
        catalog = cat;
        return cat;
    }

    /**
     * @param c a connection
     * @return every b-tree of the main schema by root page, page 1 as {@code sqlite_schema}
     * @throws SQLException if the schema cannot be read
     */
    static Map<Integer, BTree> pages(Connection c) throws SQLException {
        Map<Integer, BTree> pages = new HashMap<>();
        pages.put(1, new BTree("sqlite_schema", null,
                List.of("type", "name", "tbl_name", "rootpage", "sql"), null));
        List<String[]> objects = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT type, name, tbl_name, rootpage FROM main.sqlite_schema WHERE rootpage > 0")) {
            while (rs.next()) {
                objects.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)});
            }
        }
        Map<String, List<String>> tableColumns = new HashMap<>();
        Map<String, String> rowidColumns = new HashMap<>();
        for (String[] o : objects) {
            if (o[0].equals("table")) {
                List<String> cols = new ArrayList<>();
                List<String> pk = new ArrayList<>();
                String pkType = null;
                try (PreparedStatement ps = c.prepareStatement("SELECT name, type, pk FROM pragma_table_info(?)")) {
                    ps.setString(1, o[1]);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            cols.add(rs.getString(1).toLowerCase(Locale.ROOT));
                            if (rs.getInt(3) > 0) {
                                pk.add(rs.getString(1).toLowerCase(Locale.ROOT));
                                pkType = rs.getString(2);
                            }
                        }
                    }
                }
                tableColumns.put(o[1].toLowerCase(Locale.ROOT), cols);
                if (pk.size() == 1 && "INTEGER".equalsIgnoreCase(pkType == null ? "" : pkType.trim())) {
                    rowidColumns.put(o[1].toLowerCase(Locale.ROOT), pk.get(0));
                }
            }
        }
        for (String[] o : objects) {
            String table = o[2].toLowerCase(Locale.ROOT);
            int page = Integer.parseInt(o[3]);
            if (o[0].equals("table")) {
                pages.put(page, new BTree(table, null, tableColumns.getOrDefault(table, List.of()),
                        rowidColumns.get(table)));
            } else if (o[0].equals("index")) {
                List<String> cols = new ArrayList<>();
                List<String> tableCols = tableColumns.getOrDefault(table, List.of());
                try (PreparedStatement ps = c.prepareStatement("SELECT cid FROM pragma_index_xinfo(?) ORDER BY seqno")) {
                    ps.setString(1, o[1]);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            int cid = rs.getInt(1);
                            String rowid = rowidColumns.getOrDefault(table, "rowid");
                            cols.add(cid == -1 ? rowid : cid >= 0 && cid < tableCols.size() ? tableCols.get(cid)
                                    : "expression");
                        }
                    }
                }
                pages.put(page, new BTree(table, o[1].toLowerCase(Locale.ROOT), cols, rowidColumns.get(table)));
            }
        }
        return pages;
    }
}
