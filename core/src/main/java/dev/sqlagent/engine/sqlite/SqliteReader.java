package dev.sqlagent.engine.sqlite;

import dev.sqlagent.engine.Explain;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.engine.Reads;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineReading;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * SQLite's reading of a statement, from the bytecode {@code EXPLAIN} shows (sqlite-jdbc has no
 * authorizer hook). Every b-tree the program opens ({@code OpenRead} with its root page, mapped through
 * {@code sqlite_schema} to its table, indexes included, views already expanded by SQLite), every column
 * it takes from a table or index cursor ({@code Column}; {@code Rowid} as the integer primary key it
 * aliases, or as the system column {@code rowid} of a table without one; the keys of an index seek), every
 * virtual table declared in the schema it opens ({@code VOpen}, named by probing each declared virtual
 * table's handle on the same connection) and its columns ({@code VColumn}; on an FTS5 table a hidden column,
 * the table's own name or {@code rank}, is its whole row, and so is a {@code VFilter} whose index string or
 * number says it matches or orders by the whole row), every function it calls (an FTS5 auxiliary function
 * bound to the row only when its first argument comes from that hidden column)
 * ({@code Function}, {@code AggStep}, …) and any opcode that writes or touches the schema. It knows nothing
 * of the guard's parser.
 *
 * <p>Fail closed: an opcode outside the lists below, a b-tree of another attached database, a virtual
 * table that is not declared in the schema (a table-valued function such as {@code json_each} or a
 * {@code pragma_…} table), an expression index or a stored generated column (whose sources SQLite does not
 * record: read as every ordinary column of its table) are read conservatively or recorded as unreadable.
 */
final class SqliteReader implements PlanReader {

    private static final Set<String> FUNCTION_OPCODES = Set.of("Function", "PureFunc", "Function0", "PureFunc0",
            "AggStep", "AggStep1", "AggStep0", "AggFinal", "AggValue", "AggInverse");
    private static final Set<String> WRITE_OPCODES = Set.of("OpenWrite", "VCreate", "VDestroy", "VUpdate",
            "VRename", "VBegin", "Destroy", "Clear", "CreateBtree", "ParseSchema", "Vacuum", "IncrVacuum", "SqlExec",
            "Program", "DropTable", "DropIndex", "DropTrigger", "LoadAnalysis", "SetCookie", "Savepoint",
            "AutoCommit", "JournalMode", "Checkpoint", "TableLock", "FkCounter", "FkIfZero", "FkCheck", "ResetCount",
            "IntegrityCk", "Expire", "ReadCookie", "Pagecount", "MaxPgcnt", "VCheck", "Param");
    /** Opcodes that write, but only into the cursor they name: harmless on an ephemeral or sorter cursor. */
    private static final Set<String> CURSOR_WRITES = Set.of("Insert", "Delete", "IdxInsert", "IdxDelete",
            "NewRowid", "RowCell");
    private static final Set<String> SEEK_OPCODES = Set.of("SeekGE", "SeekGT", "SeekLE", "SeekLT", "IdxGE",
            "IdxGT", "IdxLE", "IdxLT", "Found", "NotFound", "NoConflict");
    private static final Set<String> EPHEMERAL_OPENS = Set.of("OpenEphemeral", "OpenAutoindex", "SorterOpen",
            "OpenPseudo");
    /** Opcodes that compute, jump, move registers or walk cursors without reading a stored value. */
    private static final Set<String> PLAIN_OPCODES = Set.of("Init", "Goto", "Halt", "HaltIfNull", "Integer",
            "Int64", "Real", "String", "String8", "Null", "SoftNull", "Blob", "Variable", "Move", "Copy", "SCopy",
            "IntCopy", "ResultRow", "Add", "Subtract", "Multiply", "Divide", "Remainder", "Concat", "BitAnd", "BitOr",
            "ShiftLeft", "ShiftRight", "BitNot", "AddImm", "MustBeInt", "RealAffinity", "Cast", "Eq", "Ne", "Lt",
            "Le", "Gt", "Ge", "ElseEq", "Permutation", "Compare", "Jump", "And", "Or", "IsTrue", "Not", "If", "IfNot",
            "IsNull", "IsType", "NotNull", "ZeroOrNull", "IfNullRow", "NullRow", "Once", "Gosub", "Return",
            "InitCoroutine", "EndCoroutine", "Yield", "BeginSubrtn", "Affinity", "TypeCheck", "MakeRecord", "Count",
            "Rewind", "Last", "Next", "Prev", "SorterNext", "SorterSort", "Sort", "SorterInsert", "SorterData",
            "SorterCompare", "ResetSorter", "OpenDup", "Close", "ColumnsUsed", "CursorHint", "Sequence",
            "SequenceTest", "Explain", "Noop", "Trace", "Abortable", "ReleaseReg", "CollSeq", "Filter", "FilterAdd",
            "DecrJumpZero", "IfPos", "IfNotZero", "OffsetLimit", "Offset", "MemMax", "RowSetAdd", "RowSetRead",
            "RowSetTest", "SeekRowid", "NotExists", "DeferredSeek", "FinishSeek", "SeekScan", "SeekHit", "IfNoHope",
            "IfNotOpen", "SeekEnd", "ClrSubtype", "GetSubtype", "SetSubtype", "IfSizeBetween", "CursorLock",
            "CursorUnlock", "VFilter", "VNext", "VInitIn", "IfEmpty", "Transaction");
    private static final String ROWID = "\u0000rowid";

    /** One instruction of the program. */
    private record Op(String op, int p1, int p2, int p3, String p4) {
    }

    /**
     * One b-tree: a table, or an index of one.
     *
     * @param table its table
     * @param index the index's name, null for the table itself
     * @param columns the stored columns in record order: a column name, {@code ROWID} for the row id, or null
     *     for an expression or a stored generated column
     * @param rowidColumn the integer primary key the row id aliases, or null
     * @param ordinary the table's columns that are neither generated nor hidden
     */
    record BTree(String table, String index, List<String> columns, String rowidColumn, List<String> ordinary) {
    }

    /**
     * The main schema, read once per database file and schema version.
     *
     * @param file the database file, empty for an in-memory database
     * @param schemaVersion {@code PRAGMA schema_version}
     * @param pages every b-tree by root page
     * @param virtualTables the virtual tables declared in the schema, with their columns (hidden ones too)
     * @param fts5Tables the virtual tables among them that are FTS5 tables
     */
    record Catalog(String file, int schemaVersion, Map<Integer, BTree> pages, Map<String, List<String>> virtualTables,
                   Set<String> fts5Tables) {
    }

    /**
     * The name under which a reading records a call of an FTS5 auxiliary function whose first argument is the
     * hidden column of an FTS5 cursor (the prefix, then the function's name): decided by
     * {@code EngineCheck.functionAllowed} as such. A call not so bound keeps its own name, which the catalog
     * classes as reading tables.
     */
    public static final String FTS5_BOUND = "fts5 auxiliary over its table:";

    private volatile Catalog catalog;

    @Override
    public EngineReading read(Connection c, SqlStatement statement, int timeoutSeconds) throws SQLException {
        Catalog cat = catalog(c, timeoutSeconds);
        List<Op> program = new ArrayList<>();
        try (PreparedStatement ps = Explain.prepare(c, "EXPLAIN ", statement, timeoutSeconds)) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    program.add(new Op(rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getInt(5), rs.getString(6)));
                }
            }
        }
        Map<String, String> virtualHandles = Map.of();
        for (Op o : program) {
            if (o.op().equals("VOpen")) {
                virtualHandles = virtualHandles(c, cat, timeoutSeconds);
                break;
            }
        }
        return reading(program, cat, virtualHandles);
    }

    private static EngineReading reading(List<Op> program, Catalog cat, Map<String, String> virtualHandles) {
        Reads reads = new Reads();
        Map<Integer, BTree> cursors = new HashMap<>();
        Map<Integer, EngineReading.Table> cursorTables = new HashMap<>();
        Map<Integer, String> virtualCursors = new HashMap<>();
        // the program opens its ephemeral cursors wherever its layout puts them, often after their first use
        Set<Integer> ephemeral = new HashSet<>();
        Set<Integer> autoindexes = new HashSet<>();
        for (Op o : program) {
            if (EPHEMERAL_OPENS.contains(o.op())) {
                ephemeral.add(o.p1());
            }
            if (o.op().equals("OpenAutoindex")) {
                autoindexes.add(o.p1());
            }
        }
        for (Op o : program) {
            if (o.op().equals("OpenDup") && ephemeral.contains(o.p2())) {
                ephemeral.add(o.p1());
            }
        }
        // registers whose row id only positions a cursor (SeekRowid, NotExists) or fills a row set
        Set<Integer> seekRegisters = new HashSet<>();
        for (Op o : program) {
            if (o.op().equals("SeekRowid") || o.op().equals("NotExists") || o.op().equals("RowSetTest")) {
                seekRegisters.add(o.p3());
            } else if (o.op().equals("RowSetAdd")) {
                seekRegisters.add(o.p2());
            }
        }
        // an automatic index SQLite builds for a join keeps each row's id to find the row again: a row id that
        // only goes into one is no read; reading it back out of the index as a value is
        Set<Integer> autoindexRecords = new HashSet<>();
        for (Op o : program) {
            if (o.op().equals("IdxInsert") && autoindexes.contains(o.p1())) {
                autoindexRecords.add(o.p2());
            }
        }
        Map<Integer, Integer> autoindexOf = new HashMap<>(); // register stored in an automatic index -> that index
        Map<Integer, Integer> rowidOffset = new HashMap<>(); // automatic index -> where its records keep a row id
        for (Op o : program) {
            if (o.op().equals("MakeRecord") && autoindexRecords.contains(o.p3())) {
                for (Op insert : program) {
                    if (insert.op().equals("IdxInsert") && insert.p2() == o.p3() && autoindexes.contains(insert.p1())) {
                        for (int r = o.p1(); r < o.p1() + o.p2(); r++) {
                            autoindexOf.put(r, insert.p1());
                        }
                    }
                }
            }
        }
        Map<Integer, Integer> autoindexSource = new HashMap<>(); // automatic index -> the cursor whose row ids it keeps
        for (Op o : program) {
            Integer index = autoindexOf.get(o.p2());
            if ((o.op().equals("Rowid") || o.op().equals("IdxRowid")) && index != null && !autoindexes.contains(o.p1())) {
                autoindexSource.put(index, o.p1());
                for (Op m : program) {
                    if (m.op().equals("MakeRecord") && o.p2() >= m.p1() && o.p2() < m.p1() + m.p2()
                            && autoindexRecords.contains(m.p3())) {
                        rowidOffset.put(index, o.p2() - m.p1());
                    }
                }
            }
        }
        Map<Op, String> boundAuxiliary = boundAuxiliary(program, cat, virtualHandles);
        Map<Op, Integer> indexNumbers = indexNumbers(program);
        for (Op o : program) {
            String op = o.op();
            if (op.equals("OpenRead") || op.equals("ReopenIdx")) {
                if (o.p3() != 0) {
                    reads.unreadable("a b-tree (root page " + o.p2() + ") of attached database " + o.p3());
                    continue;
                }
                BTree tree = cat.pages().get(o.p2());
                if (tree == null) {
                    reads.unreadable("the b-tree with root page " + o.p2() + ", which the schema does not list");
                    continue;
                }
                EngineReading.Table t = new EngineReading.Table("main", tree.table(), true);
                reads.tables.add(t);
                cursorTables.put(o.p1(), t);
                cursors.put(o.p1(), tree);
                if (tree.index() != null) {
                    // a cursor on an index returns rows in the order of its key: whatever depends on that order
                    // (a LIMIT, an aggregate, the answer's own order) reads the key, which counts as read
                    for (String col : tree.columns()) {
                        if (col == null) {
                            tree.ordinary().forEach(x -> reads.possibleColumns.add(new EngineReading.ColumnRead(t, x)));
                        } else if (!col.equals(ROWID)) {
                            reads.possibleColumns.add(new EngineReading.ColumnRead(t, col));
                        }
                    }
                }
            } else if (EPHEMERAL_OPENS.contains(op) || op.equals("OpenDup")) {
                continue;
            } else if (op.equals("Column")) {
                Integer source = autoindexSource.get(o.p1());
                if (source != null && rowidOffset.getOrDefault(o.p1(), -1) == o.p2()) {
                    rowid(cursors, cursorTables, source, reads);
                }
                column(cursors, cursorTables, o.p1(), o.p2(), reads);
            } else if (op.equals("Rowid") || op.equals("IdxRowid")) {
                if (autoindexOf.containsKey(o.p2()) && !autoindexes.contains(o.p1())) {
                    continue; // kept in an automatic index only
                } else if (autoindexSource.containsKey(o.p1()) && !seekRegisters.contains(o.p2())) {
                    rowid(cursors, cursorTables, autoindexSource.get(o.p1()), reads);
                } else if (!seekRegisters.contains(o.p2())) {
                    rowid(cursors, cursorTables, o.p1(), reads);
                }
            } else if (op.equals("RowData")) {
                BTree tree = cursors.get(o.p1());
                if (tree != null) {
                    for (int i = 0; i < tree.columns().size(); i++) {
                        column(cursors, cursorTables, o.p1(), i, reads);
                    }
                }
            } else if (SEEK_OPCODES.contains(op)) {
                BTree tree = cursors.get(o.p1());
                if (tree != null && tree.index() != null) {
                    int keys = parseInt(o.p4(), 0);
                    keys = keys <= 0 ? tree.columns().size() : keys;
                    for (int i = 0; i < keys && i < tree.columns().size(); i++) {
                        column(cursors, cursorTables, o.p1(), i, reads);
                    }
                }
            } else if (op.equals("VOpen")) {
                String name = virtualHandles.get(o.p4());
                if (name == null) {
                    reads.unreadable("a virtual table or table-valued function not declared in the schema");
                    continue;
                }
                reads.tables.add(new EngineReading.Table("main", name, true));
                virtualCursors.put(o.p1(), name);
            } else if (op.equals("VFilter") && cat.fts5Tables().contains(virtualCursors.get(o.p1()))) {
                String name = virtualCursors.get(o.p1());
                Integer idxNum = indexNumbers.get(o);
                if (idxNum == null) {
                    reads.unreadable("the index number of a filter on FTS5 table " + name);
                    continue;
                }
                if ((idxNum & FTS5_ORDER_RANK) != 0) {
                    // ordered by rank inside FTS5: rank is computed from the whole row
                    reads.starReads.add(new EngineReading.StarRead(new EngineReading.Table("main", name, true),
                            Set.of()));
                }
                fts5Filter(name, o.p4() == null ? "" : o.p4(), cat, reads);
            } else if (op.equals("VColumn")) {
                String name = virtualCursors.get(o.p1());
                List<String> cols = name == null ? null : cat.virtualTables().get(name);
                if (cols == null || o.p2() < 0 || o.p2() >= cols.size()) {
                    reads.unreadable("a column of a virtual table cursor it cannot name");
                    continue;
                }
                String col = cols.get(o.p2());
                EngineReading.Table table = new EngineReading.Table("main", name, true);
                if (cat.fts5Tables().contains(name) && (col.equals(name) || col.equals("rank"))) {
                    // an FTS5 table's hidden column: its own name stands for the whole row, rank is computed from it
                    reads.starReads.add(new EngineReading.StarRead(table, Set.of()));
                } else {
                    reads.columns.add(new EngineReading.ColumnRead(table, col));
                }
            } else if (FUNCTION_OPCODES.contains(op)) {
                if (o.p4() == null || o.p4().isBlank()) {
                    reads.unreadable("a " + op + " without a function name");
                    continue;
                }
                int paren = o.p4().indexOf('(');
                String function = (paren < 0 ? o.p4() : o.p4().substring(0, paren)).toLowerCase(Locale.ROOT);
                String bound = boundAuxiliary.get(o);
                reads.functions.add(bound != null ? FTS5_BOUND + function : function);
            } else if (CURSOR_WRITES.contains(op)) {
                if (!ephemeral.contains(o.p1())) {
                    reads.writes.add(op);
                }
            } else if (WRITE_OPCODES.contains(op) || op.equals("Transaction") && o.p2() != 0) {
                reads.writes.add(op);
            } else if (!PLAIN_OPCODES.contains(op)) {
                reads.unreadable("the opcode " + op);
            }
        }
        return reads.reading();
    }

    /**
     * What an FTS5 cursor's constraints read, from its index string ({@code VFilter}'s fourth operand, written
     * by FTS5's {@code xBestIndex}): {@code M}, {@code L} or {@code G} and a column number (a {@code MATCH},
     * {@code LIKE} or {@code GLOB} on that column: the column named like the table is the whole row), {@code m}
     * (a {@code MATCH} on the table: the whole row), {@code =}, {@code <}, {@code >} (the row id). {@code r}, a
     * {@code rank MATCH} that chooses a ranking function by text, and anything else are unreadable.
     */
    private static void fts5Filter(String table, String index, Catalog cat, Reads reads) {
        List<String> cols = cat.virtualTables().get(table);
        EngineReading.Table t = new EngineReading.Table("main", table, true);
        int i = 0;
        while (i < index.length()) {
            char c = index.charAt(i++);
            if (c == 'M' || c == 'L' || c == 'G') {
                int start = i;
                while (i < index.length() && Character.isDigit(index.charAt(i))) {
                    i++;
                }
                int col = start == i || i - start > 4 ? -1 : Integer.parseInt(index.substring(start, i));
                String name = cols == null || col < 0 || col >= cols.size() ? null : cols.get(col);
                if (name == null || name.equals("rank")) {
                    reads.unreadable("the FTS5 index string " + index + " of " + table);
                    return;
                }
                if (name.equals(table)) {
                    reads.starReads.add(new EngineReading.StarRead(t, Set.of()));
                } else {
                    reads.columns.add(new EngineReading.ColumnRead(t, name));
                }
            } else if (c == 'm') {
                reads.starReads.add(new EngineReading.StarRead(t, Set.of()));
            } else if (c == '=' || c == '<' || c == '>') {
                reads.systemColumns.add(new EngineReading.ColumnRead(t, "rowid"));
            } else {
                reads.unreadable("the FTS5 index string " + index + " of " + table
                        + (c == 'r' ? " (rank MATCH: a ranking function chosen by text)" : ""));
                return;
            }
        }
    }

    /** FTS5's {@code idxNum} bit for a scan it orders by {@code rank} itself ({@code FTS5_BI_ORDER_RANK}). */
    private static final int FTS5_ORDER_RANK = 0x20;

    /** Opcodes that only load a register ({@code P2}) before a {@code VFilter}. */
    private static final Set<String> LOADS = Set.of("Integer", "Int64", "Real", "String8", "String", "Null", "Blob",
            "Variable", "Copy", "SCopy", "IntCopy");

    /**
     * Each {@code VFilter}'s index number ({@code idxNum}, in register {@code P3}), when the loads just before it
     * set that register with {@code Integer}; absent when it cannot be placed so.
     */
    private static Map<Op, Integer> indexNumbers(List<Op> program) {
        Map<Op, Integer> out = new java.util.IdentityHashMap<>();
        for (int i = 0; i < program.size(); i++) {
            Op o = program.get(i);
            if (!o.op().equals("VFilter")) {
                continue;
            }
            for (int j = i - 1; j >= 0 && LOADS.contains(program.get(j).op()); j--) {
                Op w = program.get(j);
                if (w.p2() == o.p3()) {
                    if (w.op().equals("Integer")) {
                        out.put(o, w.p1());
                    }
                    break;
                }
            }
        }
        return out;
    }

    /** The FTS5 auxiliary functions, whose calls SQLite hands to FTS5 when their first argument is its column. */
    private static final Set<String> AUXILIARY = Set.of("bm25", "highlight", "snippet");

    /**
     * The calls of FTS5 auxiliary functions whose first argument is the hidden column of an FTS5 cursor (the
     * column named like its table, whose value is the cursor), to that table: the register holding the first
     * argument ({@code P2}) was last written by a {@code VColumn} of that column. A call whose first argument
     * cannot be placed so is not in the map (its name stays the catalog's, which reads tables: refused).
     */
    private static Map<Op, String> boundAuxiliary(List<Op> program, Catalog cat, Map<String, String> virtualHandles) {
        Map<Op, String> out = new java.util.IdentityHashMap<>();
        for (int i = 0; i < program.size(); i++) {
            Op o = program.get(i);
            if (!FUNCTION_OPCODES.contains(o.op()) || o.p4() == null) {
                continue;
            }
            int paren = o.p4().indexOf('(');
            String function = (paren < 0 ? o.p4() : o.p4().substring(0, paren)).toLowerCase(Locale.ROOT);
            if (!AUXILIARY.contains(function)) {
                continue;
            }
            int register = o.p2();
            for (int j = i - 1; j >= 0; j--) {
                Op w = program.get(j);
                if (w.op().equals("VColumn") && w.p3() == register) {
                    String table = hiddenTableColumn(program, cat, virtualHandles, w);
                    if (table != null) {
                        out.put(o, table);
                    }
                    break;
                }
                if (w.p1() == register || w.p2() == register || w.p3() == register) {
                    break; // something else may write the register: not placed
                }
            }
        }
        return out;
    }

    /** The FTS5 table whose hidden column named like the table a {@code VColumn} reads, or null. */
    private static String hiddenTableColumn(List<Op> program, Catalog cat, Map<String, String> virtualHandles,
                                            Op vcolumn) {
        String table = null;
        for (Op o : program) {
            if (o.op().equals("VOpen") && o.p1() == vcolumn.p1()) {
                if (table != null) {
                    return null; // the cursor number opened twice: not placed
                }
                table = virtualHandles.get(o.p4());
                if (table == null) {
                    return null;
                }
            }
        }
        if (table == null || !cat.fts5Tables().contains(table)) {
            return null;
        }
        List<String> cols = cat.virtualTables().get(table);
        return cols != null && vcolumn.p2() >= 0 && vcolumn.p2() < cols.size() && cols.get(vcolumn.p2()).equals(table)
                ? table : null;
    }

    private static void column(Map<Integer, BTree> cursors, Map<Integer, EngineReading.Table> cursorTables, int cursor,
                               int index, Reads out) {
        BTree tree = cursors.get(cursor);
        if (tree == null) {
            return; // an ephemeral, sorter or pseudo cursor: its values came from a real cursor first
        }
        EngineReading.Table table = cursorTables.get(cursor);
        String name = index >= 0 && index < tree.columns().size() ? tree.columns().get(index) : null;
        if (ROWID.equals(name)) {
            rowid(cursors, cursorTables, cursor, out);
        } else if (name != null) {
            out.columns.add(new EngineReading.ColumnRead(table, name));
        } else {
            // an index expression or a stored generated column: SQLite does not say what it is computed from
            for (String c : tree.ordinary()) {
                out.columns.add(new EngineReading.ColumnRead(table, c));
            }
        }
    }

    private static void rowid(Map<Integer, BTree> cursors, Map<Integer, EngineReading.Table> cursorTables, int cursor,
                              Reads out) {
        BTree tree = cursors.get(cursor);
        if (tree == null) {
            return;
        }
        EngineReading.Table table = cursorTables.get(cursor);
        if (tree.rowidColumn() != null) {
            out.columns.add(new EngineReading.ColumnRead(table, tree.rowidColumn()));
        } else {
            out.systemColumns.add(new EngineReading.ColumnRead(table, "rowid"));
        }
    }

    private static int parseInt(String s, int fallback) {
        try {
            return s == null ? fallback : Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /**
     * @return each declared virtual table's handle on this connection ({@code VOpen}'s fourth operand), to
     *     its name: SQLite names no virtual table in its bytecode, so each is asked for once
     */
    private static Map<String, String> virtualHandles(Connection c, Catalog cat, int timeoutSeconds)
            throws SQLException {
        Map<String, String> out = new HashMap<>();
        for (String name : cat.virtualTables().keySet()) {
            try (PreparedStatement ps = c.prepareStatement("EXPLAIN SELECT 1 FROM main.\""
                    + name.replace("\"", "\"\"") + "\"")) {
                timeout(ps, timeoutSeconds);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if ("VOpen".equals(rs.getString(2)) && rs.getString(6) != null) {
                            out.put(rs.getString(6), name);
                        }
                    }
                }
            }
        }
        return out;
    }

    /**
     * {@return a table without row id's columns in record order: its primary key index's, key columns first}
     */
    private static List<String> primaryKeyOrder(Connection c, String table, int timeoutSeconds) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT x.name FROM pragma_index_list(?) AS l, "
                + "pragma_index_xinfo(l.name) AS x WHERE l.origin = 'pk' ORDER BY x.seqno")) {
            timeout(ps, timeoutSeconds);
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) == null ? null : rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        return out;
    }

    private static void timeout(PreparedStatement ps, int timeoutSeconds) throws SQLException {
        if (timeoutSeconds > 0) {
            ps.setQueryTimeout(timeoutSeconds);
        }
    }

    Catalog catalog(Connection c, int timeoutSeconds) throws SQLException {
        int version;
        try (PreparedStatement ps = c.prepareStatement("PRAGMA schema_version")) {
            timeout(ps, timeoutSeconds);
            try (ResultSet rs = ps.executeQuery()) {
                version = rs.next() ? rs.getInt(1) : -1;
            }
        }
        String file = "";
        try (PreparedStatement ps = c.prepareStatement("SELECT file FROM pragma_database_list WHERE name = 'main'")) {
            timeout(ps, timeoutSeconds);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getString(1) != null) {
                    file = rs.getString(1);
                }
            }
        }
        Catalog cat = catalog;
        if (cat != null && !file.isEmpty() && cat.file().equals(file) && cat.schemaVersion() == version) {
            return cat;
        }
        Map<String, List<String>> virtualTables = new LinkedHashMap<>();
        Set<String> fts5 = new HashSet<>();
        cat = new Catalog(file, version, pages(c, timeoutSeconds, virtualTables, fts5), Map.copyOf(virtualTables),
                Set.copyOf(fts5));
        catalog = cat;
        return cat;
    }

    /**
     * @param c a connection
     * @param timeoutSeconds cap on each catalog query
     * @param virtualTables filled with the declared virtual tables and their columns
     * @param fts5Tables filled with the virtual tables that are FTS5 tables
     * @return every b-tree of the main schema by root page, page 1 as {@code sqlite_schema}
     * @throws SQLException if the schema cannot be read
     */
    static Map<Integer, BTree> pages(Connection c, int timeoutSeconds, Map<String, List<String>> virtualTables,
                                     Set<String> fts5Tables) throws SQLException {
        Map<Integer, BTree> pages = new HashMap<>();
        List<String> schemaColumns = List.of("type", "name", "tbl_name", "rootpage", "sql");
        pages.put(1, new BTree("sqlite_schema", null, schemaColumns, null, schemaColumns));
        List<String[]> objects = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT type, name, tbl_name, rootpage, sql FROM main.sqlite_schema WHERE type IN ('table', 'index')")) {
            timeout(ps, timeoutSeconds);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    objects.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5)});
                }
            }
        }
        Set<String> withoutRowid = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT name FROM pragma_table_list WHERE schema = 'main' AND wr = 1")) {
            timeout(ps, timeoutSeconds);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    withoutRowid.add(rs.getString(1));
                }
            }
        }
        Map<String, List<String>> tableColumns = new HashMap<>();
        Map<String, List<String>> storedColumns = new HashMap<>();
        Map<String, String> rowidColumns = new HashMap<>();
        for (String[] o : objects) {
            if (!o[0].equals("table")) {
                continue;
            }
            String table = o[1].toLowerCase(Locale.ROOT);
            List<String> all = new ArrayList<>();
            List<String> stored = new ArrayList<>();
            List<String> ordinary = new ArrayList<>();
            List<String> pk = new ArrayList<>();
            String pkType = null;
            try (PreparedStatement ps = c.prepareStatement("SELECT name, type, pk, hidden FROM pragma_table_xinfo(?)")) {
                timeout(ps, timeoutSeconds);
                ps.setString(1, o[1]);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String name = rs.getString(1).toLowerCase(Locale.ROOT);
                        int hidden = rs.getInt(4);
                        all.add(name);
                        if (hidden == 0) {
                            ordinary.add(name);
                            stored.add(name);
                        } else if (hidden == 3) {
                            stored.add(null); // a stored generated column: its sources are not recorded
                        }
                        if (rs.getInt(3) > 0) {
                            pk.add(name);
                            pkType = rs.getString(2);
                        }
                    }
                }
            }
            if ("0".equals(o[3]) || o[3] == null) {
                if (o[4] != null && o[4].regionMatches(true, 0, "CREATE VIRTUAL TABLE", 0, 20)) {
                    virtualTables.put(table, List.copyOf(all));
                    if (dev.sqlagent.schema.SchemaCatalog.isFts5Declaration(o[4])) {
                        fts5Tables.add(table);
                    }
                }
                continue;
            }
            tableColumns.put(table, ordinary);
            storedColumns.put(table, withoutRowid.contains(o[1]) ? primaryKeyOrder(c, o[1], timeoutSeconds) : stored);
            if (pk.size() == 1 && "INTEGER".equalsIgnoreCase(pkType == null ? "" : pkType.trim())
                    && !withoutRowid.contains(o[1])) {
                rowidColumns.put(table, pk.get(0));
            }
        }
        for (String[] o : objects) {
            String table = o[2].toLowerCase(Locale.ROOT);
            int page = parseInt(o[3], 0);
            if (page <= 0) {
                continue;
            }
            String rowid = rowidColumns.get(table);
            List<String> ordinary = tableColumns.getOrDefault(table, List.of());
            if (o[0].equals("table")) {
                List<String> stored = new ArrayList<>();
                for (String s : storedColumns.getOrDefault(table, List.of())) {
                    // the integer primary key is the row id, stored as NULL in the record
                    stored.add(s != null && s.equals(rowid) ? ROWID : s);
                }
                pages.put(page, new BTree(table, null, stored, rowid, ordinary));
            } else if (o[0].equals("index")) {
                List<String> cols = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT cid, name FROM pragma_index_xinfo(?) ORDER BY seqno")) {
                    timeout(ps, timeoutSeconds);
                    ps.setString(1, o[1]);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            int cid = rs.getInt(1);
                            String name = rs.getString(2);
                            cols.add(cid == -1 ? ROWID : cid == -2 || name == null ? null : name.toLowerCase(Locale.ROOT));
                        }
                    }
                }
                pages.put(page, new BTree(table, o[1].toLowerCase(Locale.ROOT), cols, rowid, ordinary));
            }
        }
        return pages;
    }
}
