package dev.sqlagent.testing;

import dev.sqlagent.execution.UrlDataSource;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * Copies a Spider SQLite database into an in-memory H2 database (tables and rows, no keys), so that the
 * same model SQL can run on H2. Identifiers are created upper-case, which is what H2 folds unquoted names
 * to, so {@code SELECT name FROM singer} finds {@code Name} of {@code singer} as on SQLite.
 */
public final class H2Spider {

    private static final Set<String> COPIED = ConcurrentHashMap.newKeySet();

    private H2Spider() {
    }

    /**
     * @param dbId the Spider database id
     * @return a data source on its H2 copy (created on first use, kept for the JVM's life)
     */
    public static DataSource of(String dbId) {
        String url = "jdbc:h2:mem:spider_" + dbId + ";DB_CLOSE_DELAY=-1";
        UrlDataSource h2 = new UrlDataSource(url, "sa", "");
        synchronized (COPIED) {
            if (COPIED.add(dbId)) {
                try {
                    copy(SharedData.sqlite(dbId), h2);
                } catch (SQLException e) {
                    COPIED.remove(dbId);
                    throw new IllegalStateException("cannot copy " + dbId + " to H2: " + e.getMessage(), e);
                }
            }
        }
        return h2;
    }

    private static void copy(DataSource from, DataSource to) throws SQLException {
        try (Connection src = from.getConnection(); Connection dst = to.getConnection()) {
            DatabaseMetaData md = src.getMetaData();
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = md.getTables(null, null, "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            for (String table : tables) {
                List<String> cols = new ArrayList<>();
                StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(q(table)).append(" (");
                try (ResultSet rs = md.getColumns(null, null, table, "%")) {
                    while (rs.next()) {
                        String col = rs.getString("COLUMN_NAME");
                        ddl.append(cols.isEmpty() ? "" : ", ").append(q(col)).append(' ')
                                .append(h2Type(rs.getString("TYPE_NAME")));
                        cols.add(col);
                    }
                }
                try (Statement s = dst.createStatement()) {
                    s.execute(ddl.append(')').toString());
                }
                StringBuilder insert = new StringBuilder("INSERT INTO ").append(q(table)).append(" VALUES (");
                for (int i = 0; i < cols.size(); i++) {
                    insert.append(i == 0 ? "?" : ", ?");
                }
                try (Statement s = src.createStatement();
                        ResultSet rs = s.executeQuery("SELECT * FROM \"" + table + "\"");
                        PreparedStatement ps = dst.prepareStatement(insert.append(')').toString())) {
                    while (rs.next()) {
                        for (int i = 1; i <= cols.size(); i++) {
                            Object v = rs.getObject(i);
                            ps.setObject(i, v == null ? null : v instanceof Number ? v : v.toString());
                        }
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
        }
    }

    private static String q(String name) {
        return "\"" + name.toUpperCase(Locale.ROOT) + "\"";
    }

    private static String h2Type(String sqliteType) {
        String t = sqliteType == null ? "" : sqliteType.toUpperCase(Locale.ROOT);
        if (t.contains("INT")) {
            return "BIGINT";
        }
        if (t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB") || t.contains("NUMERIC")
                || t.contains("DECIMAL")) {
            return "DOUBLE PRECISION";
        }
        return "CHARACTER VARYING";
    }
}
