package dev.sqlagent.mcp;

import dev.sqlagent.execution.UrlDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The shared PostgreSQL and MariaDB servers on loopback, found through {@code SQLAGENT_PG_URL},
 * {@code SQLAGENT_PG_USER}, {@code SQLAGENT_PG_PASSWORD}, {@code SQLAGENT_MARIADB_URL},
 * {@code SQLAGENT_MARIADB_USER}, {@code SQLAGENT_MARIADB_PASSWORD} (defaults: {@code 127.0.0.1}, database
 * {@code test}, {@code postgres} and {@code root} without password). A server that does not answer skips the
 * suite with a banner on standard error, or fails it when {@code SQLAGENT_REQUIRE_SERVERS=true}.
 */
final class Servers {

    /** A server: where and as whom. */
    record Server(String name, String url, String user, String password) {

        /** @return a data source on the server's {@code test} database as its administrator */
        DataSource admin() {
            return new UrlDataSource(url, user, password);
        }

        /**
         * Skips (or fails, when servers are required) unless the server answers.
         *
         * @return this
         */
        Server require() {
            String why = null;
            try (Connection c = admin().getConnection()) {
                c.isValid(3);
            } catch (SQLException e) {
                why = name + " not reachable at " + url + " as " + user + ": " + e.getMessage();
            }
            if (why != null) {
                if ("true".equalsIgnoreCase(System.getenv("SQLAGENT_REQUIRE_SERVERS"))) {
                    Assertions.fail(why + " (SQLAGENT_REQUIRE_SERVERS=true)");
                }
                System.err.println("\n************************************************************************\n"
                        + "SKIPPED: " + why + "\n"
                        + "  start it (scripts/start-servers.sh) or set SQLAGENT_REQUIRE_SERVERS=true to fail\n"
                        + "************************************************************************");
                Assumptions.abort("SKIPPED: " + why);
            }
            return this;
        }
    }

    private Servers() {
    }

    static Server postgres() {
        return new Server("PostgreSQL", env("SQLAGENT_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test"),
                env("SQLAGENT_PG_USER", "postgres"), env("SQLAGENT_PG_PASSWORD", ""));
    }

    static Server mariadb() {
        return new Server("MariaDB", env("SQLAGENT_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test"),
                env("SQLAGENT_MARIADB_USER", "root"), env("SQLAGENT_MARIADB_PASSWORD", ""));
    }

    /** Adds a parameter to a JDBC URL. */
    static String withParameter(String url, String name, String value) {
        return url + (url.contains("?") ? "&" : "?") + name + "=" + value;
    }

    /** Replaces the database of a {@code jdbc:mariadb://host:port/db?…} URL. */
    static String withDatabase(String url, String database) {
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
