package dev.sqlagent.cases;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Writes cases into a {@code training_pairs} table (name configurable), creating it when missing:
 * {@code id, question, sql_text, status (good/bad), outcome, error, corrections, created_at, trace_json},
 * and the learning columns {@code table_label, category, error_category, error_tags} (comma-separated),
 * {@code verified, judge_score} (NULL without a judge), {@code rounds} and {@code trajectory} (the
 * attempts as a JSON array).
 * The DDL uses portable types (VARCHAR, a large text type chosen per database, INTEGER, TIMESTAMP).
 * Thread-safe; each case is one insert in its own transaction.
 */
public final class JdbcCaseSink implements CaseSink {

    /** Default table name. */
    public static final String DEFAULT_TABLE = "training_pairs";
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    private final DataSource dataSource;
    private final String table;
    private volatile boolean tableReady;

    private JdbcCaseSink(DataSource dataSource, String table) {
        this.dataSource = dataSource;
        this.table = table;
    }

    /**
     * @param dataSource where to write; its user needs CREATE TABLE (once) and INSERT
     * @return a sink writing {@value #DEFAULT_TABLE}
     */
    public static JdbcCaseSink create(DataSource dataSource) {
        return create(dataSource, DEFAULT_TABLE);
    }

    /**
     * @param dataSource where to write
     * @param table the table name, a plain identifier
     * @return a sink
     * @throws IllegalArgumentException if the table name is not a plain identifier
     */
    public static JdbcCaseSink create(DataSource dataSource, String table) {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(table, "table");
        if (!IDENTIFIER.matcher(table).matches()) {
            throw new IllegalArgumentException("table must be a plain identifier but was '" + table + "'");
        }
        return new JdbcCaseSink(dataSource, table);
    }

    /** @return the table written */
    public String table() {
        return table;
    }

    @Override
    public void accept(CaseRecord r) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            ensureTable(c);
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table
                    + " (id, question, sql_text, status, outcome, error, corrections, created_at, trace_json,"
                    + " table_label, category, error_category, error_tags, verified, judge_score, rounds, trajectory)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, r.id());
                ps.setString(2, r.question());
                ps.setString(3, r.sql());
                ps.setString(4, r.status() == CaseRecord.Status.GOOD ? "good" : "bad");
                ps.setString(5, r.outcome());
                ps.setString(6, r.error());
                ps.setInt(7, r.corrections());
                ps.setTimestamp(8, Timestamp.from(r.createdAt()));
                ps.setString(9, r.traceJson());
                ps.setString(10, r.table());
                ps.setString(11, r.category());
                ps.setString(12, r.errorCategory());
                ps.setString(13, String.join(",", r.errorTags()));
                ps.setInt(14, r.verified() ? 1 : 0);
                if (r.judgeScore().isPresent()) {
                    ps.setInt(15, r.judgeScore().getAsInt());
                } else {
                    ps.setNull(15, java.sql.Types.INTEGER);
                }
                ps.setInt(16, r.rounds());
                ps.setString(17, dev.sqlagent.internal.CaseJson.writeAttempts(r.attempts()));
                ps.executeUpdate();
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(auto);
            }
        }
    }

    private void ensureTable(Connection c) throws SQLException {
        if (tableReady) {
            return;
        }
        synchronized (this) {
            if (tableReady) {
                return;
            }
            String product = c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT);
            String text = product.contains("mysql") || product.contains("mariadb") ? "LONGTEXT"
                    : product.contains("oracle") ? "CLOB" : product.contains("microsoft") ? "NVARCHAR(MAX)"
                    : product.contains("h2") ? "CLOB" : "TEXT";
            String ddl = "CREATE TABLE IF NOT EXISTS " + table + " (id VARCHAR(64) PRIMARY KEY, question " + text
                    + " NOT NULL, sql_text " + text + ", status VARCHAR(8) NOT NULL, outcome VARCHAR(16) NOT NULL, error "
                    + text + ", corrections INTEGER NOT NULL, created_at TIMESTAMP NOT NULL, trace_json " + text
                    + ", table_label VARCHAR(200), category VARCHAR(200), error_category VARCHAR(40), error_tags"
                    + " VARCHAR(400), verified INTEGER NOT NULL, judge_score INTEGER, rounds INTEGER NOT NULL, trajectory "
                    + text + ")";
            try (Statement s = c.createStatement()) {
                s.execute(ddl);
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
            tableReady = true;
        }
    }
}
