package dev.sqlagent.execution;

import dev.sqlagent.testing.SharedData;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells the true cause of a failing query where the schema alone can tell it, independently of any
 * database's error message: a {@code FROM}/{@code JOIN} name that is no table of the database is
 * {@link ErrorCategory#TABLE_NOT_FOUND}; an {@code alias.column} whose table has no such column is
 * {@link ErrorCategory#COLUMN_NOT_FOUND}. Everything else is left undetermined (empty). The schema is read
 * from the Spider SQLite file's metadata; the PostgreSQL and MariaDB scripts hold the same tables.
 */
final class TrueCauseOracle {

    private static final Pattern QUOTED = Pattern.compile("'(?:[^']|'')*'|\"[^\"]*\"");
    private static final Pattern FROM = Pattern.compile(
            "(?i)\\b(?:from|join)\\s+([a-z_]\\w*)(?:\\s+(?:as\\s+)?([a-z_]\\w*))?");
    private static final Pattern QUALIFIED = Pattern.compile("(?i)\\b([a-z_]\\w*)\\.([a-z_]\\w*)\\b");
    private static final Set<String> NOT_ALIASES = Set.of("where", "on", "join", "group", "order", "inner", "left",
            "right", "full", "outer", "cross", "natural", "limit", "union", "except", "intersect", "having", "using");

    private final Map<String, Map<String, Set<String>>> schemas = new ConcurrentHashMap<>();

    Optional<ErrorCategory> trueCause(String dbId, String sql) {
        Map<String, Set<String>> tables = schemas.computeIfAbsent(dbId, TrueCauseOracle::readSchema);
        String s = QUOTED.matcher(sql).replaceAll("''");
        Map<String, String> aliases = new HashMap<>();
        Matcher m = FROM.matcher(s);
        while (m.find()) {
            String table = m.group(1).toLowerCase(Locale.ROOT);
            if (!tables.containsKey(table)) {
                return Optional.of(ErrorCategory.TABLE_NOT_FOUND);
            }
            aliases.put(table, table);
            String alias = m.group(2) == null ? null : m.group(2).toLowerCase(Locale.ROOT);
            if (alias != null && !NOT_ALIASES.contains(alias)) {
                aliases.put(alias, table);
            }
        }
        m = QUALIFIED.matcher(s);
        while (m.find()) {
            String table = aliases.get(m.group(1).toLowerCase(Locale.ROOT));
            if (table != null && !tables.get(table).contains(m.group(2).toLowerCase(Locale.ROOT))) {
                return Optional.of(ErrorCategory.COLUMN_NOT_FOUND);
            }
        }
        return Optional.empty();
    }

    private static Map<String, Set<String>> readSchema(String dbId) {
        Map<String, Set<String>> tables = new HashMap<>();
        try (Connection c = SharedData.sqlite(dbId).getConnection()) {
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getColumns(null, null, "%", "%")) {
                while (rs.next()) {
                    tables.computeIfAbsent(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT), k -> new HashSet<>())
                            .add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the schema of " + dbId + ": " + e.getMessage(), e);
        }
        return tables;
    }
}
