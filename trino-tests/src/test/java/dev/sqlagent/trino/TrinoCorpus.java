package dev.sqlagent.trino;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Reads a corpus file of this module's resources: statements separated by blank lines, {@code --@ class name}
 * starting a class, {@code --! mark} lines before a statement giving its expectation, other {@code --} lines
 * comments.
 */
final class TrinoCorpus {

    /** One statement of a corpus. */
    record Entry(String file, String cls, String mark, String sql) {
        @Override
        public String toString() {
            return file + " [" + cls + "] " + sql;
        }
    }

    private TrinoCorpus() {
    }

    static List<Entry> read(String resource) throws IOException {
        String text;
        try (InputStream in = TrinoCorpus.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new IOException("no resource " + resource);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String file = resource.substring(resource.lastIndexOf('/') + 1);
        List<Entry> out = new ArrayList<>();
        String cls = "";
        String mark = "";
        StringBuilder sql = new StringBuilder();
        for (String line : (text + "\n\n").split("\n", -1)) {
            String t = line.strip();
            if (t.isEmpty()) {
                if (sql.length() > 0) {
                    out.add(new Entry(file, cls, mark, sql.toString().strip()));
                    sql.setLength(0);
                    mark = "";
                }
            } else if (t.startsWith("--@ class ")) {
                cls = t.substring("--@ class ".length()).strip();
            } else if (t.startsWith("--! ")) {
                mark = t.substring(4).strip();
            } else if (!t.startsWith("--")) {
                sql.append(line).append('\n');
            }
        }
        return out;
    }

    /**
     * Runs a statement and renders what it returns: one line per row, cells separated by {@code |}; the
     * update count for a statement without rows.
     */
    static List<String> run(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            boolean rows = s.execute(sql);
            List<String> out = new ArrayList<>();
            if (!rows) {
                out.add("update count " + s.getUpdateCount());
                return out;
            }
            try (ResultSet rs = s.getResultSet()) {
                out.addAll(render(rs));
            }
            return out;
        }
    }

    /** Runs the library's statement (its bound values set) and renders its rows as {@link #run(Connection, String)}. */
    static List<String> run(Connection c, dev.sqlagent.execution.SqlStatement statement) throws SQLException {
        if (statement.parameters().isEmpty()) {
            return run(c, statement.sql());
        }
        try (java.sql.PreparedStatement ps = c.prepareStatement(statement.sql())) {
            for (int i = 0; i < statement.parameters().size(); i++) {
                ps.setObject(i + 1, statement.parameters().get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                return render(rs);
            }
        }
    }

    /** One line per row, cells separated by {@code |}. */
    private static List<String> render(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        ResultSetMetaData md = rs.getMetaData();
        while (rs.next()) {
            StringBuilder b = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                if (i > 1) {
                    b.append('|');
                }
                b.append(rs.getString(i));
            }
            out.add(b.toString());
        }
        return out;
    }

    /** The rows an agent answered, rendered as {@link #run(Connection, String)} renders them; empty when it did not answer. */
    static List<String> answered(dev.sqlagent.AgentResult r) {
        List<String> out = new ArrayList<>();
        if (r instanceof dev.sqlagent.AgentResult.Answered a) {
            for (List<Object> row : a.table().rows()) {
                StringBuilder b = new StringBuilder();
                for (Object v : row) {
                    b.append(b.length() == 0 ? "" : "|").append(v);
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    /** The rows as a sorted list, for comparing results whose order is not specified. */
    static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        Collections.sort(out);
        return out;
    }
}
