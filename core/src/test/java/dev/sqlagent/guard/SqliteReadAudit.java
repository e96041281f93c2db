package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineReading;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An independent check of what a SQL does on SQLite, from SQLite's own compiled program: the engine
 * check's SQLite reader ({@link EngineCheck}, which reads {@code EXPLAIN}'s bytecode) on the caller's
 * connection, shaped for the payload tests: the tables opened (main schema by name), the functions called,
 * the opcodes that write.
 */
final class SqliteReadAudit {

    /** Only its reader is used, on connections the tests hold. */
    private static final EngineCheck CHECK = EngineCheck.create(new UrlDataSource("jdbc:sqlite::memory:", null, null),
            Dialect.SQLITE);

    /** What a program reads, calls and whether it writes. */
    record Audit(Set<String> tables, Set<String> functions, Set<String> forbidden) {
    }

    private SqliteReadAudit() {
    }

    /** @return nothing any more: the reader maps root pages itself; kept so callers need not change */
    static Map<Integer, String> rootPages(Connection c) {
        return Map.of();
    }

    /** @throws SQLException if SQLite refuses to compile the SQL (then it cannot run either) */
    static Audit audit(Connection c, Map<Integer, String> pages, String sql, List<Object> params) throws SQLException {
        EngineReading r = CHECK.read(c, new SqlStatement(sql, params));
        Set<String> tables = new LinkedHashSet<>();
        for (EngineReading.Table t : r.tables()) {
            tables.add(t.schema().equals("main") ? t.name() : t.qualified());
        }
        return new Audit(tables, r.functions(), r.writes());
    }
}
