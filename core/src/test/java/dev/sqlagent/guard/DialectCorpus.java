package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Valid SQL in each dialect's idioms as models write it ({@code src/test/resources/guard-corpus/*.sql},
 * one statement per blank-line-separated block), over one small schema.
 */
final class DialectCorpus {

    static final List<Dialect> DIALECTS = List.of(Dialect.SQLITE, Dialect.POSTGRESQL, Dialect.MYSQL, Dialect.H2);

    static final List<String> TABLES = List.of("employees", "departments", "orders", "customers");

    private DialectCorpus() {
    }

    static GuardPolicy policy() {
        return GuardPolicy.builder().allowTables(TABLES).allowSelectStar(true).build();
    }

    static List<String> statements(Dialect dialect) throws IOException {
        String file = "/guard-corpus/" + (dialect == Dialect.MARIADB ? "mysql" : dialect.name().toLowerCase(Locale.ROOT)) + ".sql";
        try (InputStream in = DialectCorpus.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IOException("missing " + file);
            }
            List<String> out = new ArrayList<>();
            for (String block : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\n\\s*\\n")) {
                if (!block.isBlank()) {
                    out.add(block.strip());
                }
            }
            return out;
        }
    }

    /** Creates the corpus schema on a connection (empty tables). */
    static void createSchema(Connection c, Dialect dialect) throws SQLException {
        String ts = dialect == Dialect.MYSQL || dialect == Dialect.MARIADB ? "DATETIME" : "TIMESTAMP";
        String text = dialect == Dialect.MYSQL || dialect == Dialect.MARIADB ? "VARCHAR(200)" : "VARCHAR(200)";
        try (Statement s = c.createStatement()) {
            for (String t : TABLES) {
                s.execute("DROP TABLE IF EXISTS " + t);
            }
            s.execute("CREATE TABLE employees (id INTEGER PRIMARY KEY, name " + text + ", dept_id INTEGER, hired DATE, "
                    + "salary DECIMAL(10, 2), manager_id INTEGER, email " + text + ", note " + text + ", number INTEGER, "
                    + "uuid " + text + ")");
            s.execute("CREATE TABLE departments (id INTEGER PRIMARY KEY, name " + text + ", budget DECIMAL(10, 2), city "
                    + text + ")");
            s.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, total DECIMAL(10, 2), created_at "
                    + ts + ", status " + text + ", note " + text + ")");
            s.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name " + text + ", city " + text + ", country "
                    + text + ", number INTEGER, uuid " + text + ")");
        }
    }
}
