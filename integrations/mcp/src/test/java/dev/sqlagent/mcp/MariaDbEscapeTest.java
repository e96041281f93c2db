package dev.sqlagent.mcp;

import dev.sqlagent.execution.UrlDataSource;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;

/**
 * The escapes on MariaDB, in the database {@code mcp_escape} of the shared server, as root: stacked
 * statements, {@code SET TRANSACTION READ WRITE}, version comments that MySQL runs ({@code /*! … *}{@code /}),
 * sequences, locks, files ({@code LOAD_FILE}, {@code INTO OUTFILE}) and the system schemas.
 */
class MariaDbEscapeTest extends EscapeSuite {

    private Servers.Server maria;

    private String url() {
        if (maria == null) {
            maria = Servers.mariadb().require();
        }
        return Servers.withDatabase(maria.url(), "mcp_escape");
    }

    @Override
    DataSource admin() {
        return new UrlDataSource(url(), maria.user(), maria.password());
    }

    @Override
    void createDatabase() throws SQLException {
        url();
        try (var c = maria.admin().getConnection(); var s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS mcp_escape");
        }
    }

    @Override
    void createTables(Statement s) throws SQLException {
        s.execute("CREATE TABLE IF NOT EXISTS items (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, secret VARCHAR(40), "
                + "owner INT NOT NULL)");
        s.execute("CREATE TABLE IF NOT EXISTS hidden (id INT PRIMARY KEY, v VARCHAR(40))");
        s.execute("CREATE SEQUENCE IF NOT EXISTS item_seq");
        s.execute("INSERT IGNORE INTO items VALUES (1, 'lamp', 's1', 1), (2, 'desk', 's2', 1), (3, 'safe', 's3', 2)");
        s.execute("INSERT IGNORE INTO hidden VALUES (1, 'payroll')");
    }

    @Override
    List<String> stdioArguments() {
        return List.of(url(), maria.user(), maria.password(), "items", "items.secret", "items.owner=1", "broad");
    }

    @Override
    List<String> stateQueries() {
        return List.of(
                "SELECT id, name, secret, owner FROM items ORDER BY id",
                "SELECT id, v FROM hidden ORDER BY id",
                "SELECT next_not_cached_value FROM item_seq",
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'mcp_escape' ORDER BY 1",
                "SELECT IS_USED_LOCK('mcp_escape') IS NULL");
    }

    @Override
    List<String> attacks() {
        return List.of(
                "COMMIT; DROP TABLE items",
                "COMMIT; SET TRANSACTION READ WRITE; DELETE FROM items",
                "SET TRANSACTION READ WRITE",
                "SET SESSION TRANSACTION READ WRITE",
                "START TRANSACTION READ WRITE",
                "SELECT name FROM items; DELETE FROM items",
                "SELECT name FROM items;DROP TABLE items-- ",
                "/*!50000 DELETE FROM items */",
                "SELECT name FROM items /*!50000 ; DELETE FROM items */",
                "SELECT /*!50000 secret */ name FROM items",
                "/* */ DELETE FROM items",
                "-- \nDELETE FROM items",
                "# x\nDELETE FROM items",
                "SELECT name FROM items # ; DELETE FROM items",
                "DELETE FROM items",
                "WITH d AS (SELECT 1) DELETE FROM items",
                "REPLACE INTO items VALUES (1, 'x', 'y', 1)",
                "UPDATE items SET name = 'x'",
                "CREATE TABLE stolen AS SELECT name FROM items",
                "DROP TABLE items",
                "HANDLER items OPEN",
                "LOAD DATA INFILE '/etc/passwd' INTO TABLE items",
                "DO SLEEP(1)",
                "CALL mysql.nothing()",
                "SELECT name FROM items FOR UPDATE",
                "SELECT name FROM items LOCK IN SHARE MODE",
                "SELECT NEXTVAL(item_seq)",
                "SELECT NEXT VALUE FOR item_seq",
                "SELECT SETVAL(item_seq, 1000)",
                "SELECT GET_LOCK('mcp_escape', 1)",
                "SELECT SLEEP(30)",
                "SELECT BENCHMARK(100000000, MD5('x'))",
                "SELECT @a := 1",
                "SELECT @@datadir",
                "SELECT LOAD_FILE('/etc/passwd')",
                "SELECT name FROM items INTO OUTFILE '/tmp/mcp_escape_leak'",
                "SELECT name INTO DUMPFILE '/tmp/mcp_escape_leak' FROM items",
                "SELECT sys_exec('id')",
                "SELECT user, password FROM mysql.user",
                "SELECT table_name FROM information_schema.tables",
                "SELECT id, v FROM hidden",
                "SELECT secret FROM items",
                "SELECT * FROM items",
                "SELECT name FROM items UNION SELECT v FROM hidden",
                "SELECT (SELECT v FROM hidden LIMIT 1) AS v",
                "SELECT name FROM mcp_escape.hidden",
                "SELECT `secret` FROM `items`",
                "SELECT name FROM items ORDER BY secret");
    }
}
