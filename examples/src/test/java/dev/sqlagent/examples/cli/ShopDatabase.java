package dev.sqlagent.examples.cli;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A small shop database for the {@code ask} tests, the same on H2, SQLite, PostgreSQL and MariaDB:
 * {@code customers} (Ann of Oslo, Bo of Lund, 李雷 of 北京), {@code orders} (three in 2023, two in 2022) and
 * {@code salaries}, which no test policy allows.
 *
 * <p>On the servers it lives in schema (PostgreSQL) or database (MariaDB) {@code sqlagent_cli_ask}, made
 * once and never dropped, under a server-side lock, so that builds running at once share it safely.
 * Where the servers are: {@code SQLAGENT_PG_URL}, {@code SQLAGENT_PG_USER}, {@code SQLAGENT_PG_PASSWORD},
 * {@code SQLAGENT_MARIADB_URL}, {@code SQLAGENT_MARIADB_USER}, {@code SQLAGENT_MARIADB_PASSWORD}
 * (printed by {@code scripts/start-servers.sh}); a server that does not answer skips the test with a
 * banner, or fails it when {@code SQLAGENT_REQUIRE_SERVERS=true}.
 */
final class ShopDatabase {

    static final String NAME = "sqlagent_cli_ask";

    private static final String[] DDL = {
        "CREATE TABLE IF NOT EXISTS customers (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL, city VARCHAR(40))",
        "CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL,"
                + " amount DECIMAL(10,2) NOT NULL, order_date DATE NOT NULL)",
        "CREATE TABLE IF NOT EXISTS salaries (customer_id INTEGER PRIMARY KEY, salary DECIMAL(10,2) NOT NULL)"};

    private static final String[] ROWS = {
        "INSERT INTO customers VALUES (1, 'Ann', 'Oslo'), (2, 'Bo', 'Lund'), (3, '李雷', '北京')",
        "INSERT INTO orders VALUES (1, 1, 10.50, '2023-01-05'), (2, 2, 20.00, '2023-06-30'),"
                + " (3, 3, 30.25, '2023-12-31'), (4, 1, 5.00, '2022-03-01'), (5, 2, 7.00, '2022-11-11')",
        "INSERT INTO salaries VALUES (1, 5000.00), (2, 6000.00), (3, 7000.00)"};

    /** A database server's coordinates. */
    record Server(String name, String url, String user, String password) {
    }

    private ShopDatabase() {
    }

    /** Creates the tables and rows that are missing. */
    static void fill(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String ddl : DDL) {
                s.execute(ddl);
            }
            boolean empty;
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM customers")) {
                rs.next();
                empty = rs.getLong(1) == 0;
            }
            if (empty) {
                for (String rows : ROWS) {
                    s.execute(rows);
                }
            }
        }
    }

    /** @return the URL of an in-memory H2 shop that lives as long as the JVM */
    static synchronized String h2() throws SQLException {
        String url = "jdbc:h2:mem:" + NAME + ";DB_CLOSE_DELAY=-1";
        try (Connection c = DriverManager.getConnection(url)) {
            fill(c);
        }
        return url;
    }

    /** @return the URL of a SQLite shop file in {@code dir} */
    static String sqlite(Path dir) throws SQLException {
        String url = "jdbc:sqlite:" + dir.resolve("shop.sqlite");
        try (Connection c = DriverManager.getConnection(url)) {
            fill(c);
        }
        return url;
    }

    /** @return PostgreSQL's coordinates, the URL selecting the shop's schema; skips or fails when it is down */
    static Server postgres() {
        String admin = env("SQLAGENT_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        Server s = new Server("PostgreSQL", admin, env("SQLAGENT_PG_USER", "postgres"), env("SQLAGENT_PG_PASSWORD", ""));
        try (Connection c = connect(s, "connectTimeout=5")) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute("SELECT pg_advisory_xact_lock(hashtext('" + NAME + "'))");
                st.execute("CREATE SCHEMA IF NOT EXISTS " + NAME);
                st.execute("SET LOCAL search_path TO " + NAME);
                fill(c);
            }
            c.commit();
        } catch (SQLException e) {
            unreachable(s, e);
        }
        return new Server(s.name(), withParameter(admin, "currentSchema=" + NAME), s.user(), s.password());
    }

    /** @return MariaDB's coordinates, the URL selecting the shop's database; skips or fails when it is down */
    static Server mariadb() {
        String admin = env("SQLAGENT_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test");
        Server s = new Server("MariaDB", admin, env("SQLAGENT_MARIADB_USER", "root"), env("SQLAGENT_MARIADB_PASSWORD", ""));
        try (Connection c = connect(s, "connectTimeout=5000"); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT GET_LOCK('" + NAME + "', 60)")) {
                rs.next();
            }
            try {
                st.execute("CREATE DATABASE IF NOT EXISTS " + NAME);
                st.execute("USE " + NAME);
                fill(c);
            } finally {
                try (ResultSet rs = st.executeQuery("SELECT RELEASE_LOCK('" + NAME + "')")) {
                    rs.next();
                }
            }
        } catch (SQLException e) {
            unreachable(s, e);
        }
        return new Server(s.name(), withDatabase(admin, NAME), s.user(), s.password());
    }

    private static Connection connect(Server s, String timeout) throws SQLException {
        return DriverManager.getConnection(withParameter(s.url(), timeout), s.user(), s.password());
    }

    private static void unreachable(Server s, SQLException e) {
        String why = s.name() + " not reachable at " + s.url() + " as " + s.user() + ": " + e.getMessage();
        if ("true".equalsIgnoreCase(System.getenv("SQLAGENT_REQUIRE_SERVERS"))) {
            Assertions.fail(why + " (SQLAGENT_REQUIRE_SERVERS=true)", e);
        }
        System.err.println("\n************************************************************************\n"
                + "SKIPPED: " + why + "\n"
                + "  start it (scripts/start-servers.sh) or set SQLAGENT_REQUIRE_SERVERS=true to fail\n"
                + "************************************************************************");
        Assumptions.abort("SKIPPED: " + why);
    }

    private static String withParameter(String url, String parameter) {
        return url + (url.contains("?") ? "&" : "?") + parameter;
    }

    /** Replaces the database of a {@code jdbc:mariadb://host:port/db?…} URL. */
    private static String withDatabase(String url, String database) {
        int hosts = url.indexOf("//");
        int slash = url.indexOf('/', hosts + 2);
        int query = url.indexOf('?');
        String params = query >= 0 ? url.substring(query) : "";
        String base = slash >= 0 && (query < 0 || slash < query) ? url.substring(0, slash)
                : (query >= 0 ? url.substring(0, query) : url);
        return base + "/" + database + params;
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
