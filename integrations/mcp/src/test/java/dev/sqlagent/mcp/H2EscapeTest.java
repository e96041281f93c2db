package dev.sqlagent.mcp;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The escapes on H2 in memory, as its administrator: stacked statements and comments, H2's file and Java
 * functions ({@code CSVWRITE}, {@code FILE_READ}, {@code FILE_WRITE}, {@code LINK_SCHEMA}), {@code SCRIPT},
 * {@code RUNSCRIPT}, {@code CREATE ALIAS} (Java code), sequences.
 */
class H2EscapeTest extends EscapeSuite {

    private final String url = "jdbc:h2:mem:mcp-escape-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    /**
     * No row filter on H2: with a row filter and a denied column on the same table, H2's plan of the filtered
     * table names every column, and the engine check refuses every query of it (fail closed; an issue of the
     * engine check, not of the server). PostgreSQL and MariaDB test the row filter.
     */
    @Override
    boolean rowFiltered() {
        return false;
    }

    @Override
    DataSource admin() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(url);
        ds.setUser("sa");
        return ds;
    }

    @Override
    void createTables(Statement s) throws SQLException {
        s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, secret VARCHAR(40), owner INT NOT NULL)");
        s.execute("CREATE TABLE hidden (id INT PRIMARY KEY, v VARCHAR(40))");
        s.execute("CREATE SEQUENCE item_seq");
        s.execute("INSERT INTO items VALUES (1, 'lamp', 's1', 1), (2, 'desk', 's2', 1), (3, 'safe', 's3', 2)");
        s.execute("INSERT INTO hidden VALUES (1, 'payroll')");
    }

    @Override
    List<String> stdioArguments() {
        // the child cannot reach this JVM's memory: it gets a database of its own with the same tables
        return List.of("jdbc:h2:mem:child;DB_CLOSE_DELAY=-1;INIT=CREATE TABLE IF NOT EXISTS items (id INT PRIMARY KEY, "
                + "name VARCHAR(40) NOT NULL, secret VARCHAR(40), owner INT NOT NULL)\\;CREATE TABLE IF NOT EXISTS "
                + "hidden (id INT PRIMARY KEY, v VARCHAR(40))\\;CREATE SEQUENCE IF NOT EXISTS item_seq\\;MERGE INTO "
                + "items VALUES (1, 'lamp', 's1', 1), (2, 'desk', 's2', 1), (3, 'safe', 's3', 2)", "sa", "", "items",
                "items.secret", "-", "broad");
    }

    @Override
    List<String> stateQueries() {
        return List.of(
                "SELECT id, name, secret, owner FROM items ORDER BY id",
                "SELECT id, v FROM hidden ORDER BY id",
                "SELECT BASE_VALUE FROM INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_NAME = 'ITEM_SEQ'",
                "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC' ORDER BY 1",
                "SELECT ROUTINE_NAME FROM INFORMATION_SCHEMA.ROUTINES WHERE ROUTINE_SCHEMA = 'PUBLIC' ORDER BY 1");
    }

    @Override
    List<String> attacks() {
        return List.of(
                "COMMIT; DROP TABLE items",
                "SELECT name FROM items; DELETE FROM items",
                "/* */ DELETE FROM items",
                "-- \nDELETE FROM items",
                "SET AUTOCOMMIT TRUE",
                "SET EXCLUSIVE 1",
                "DELETE FROM items",
                "MERGE INTO items KEY (id) VALUES (1, 'x', 'y', 1)",
                "CALL CSVWRITE('/tmp/mcp_escape_leak.csv', 'SELECT v FROM hidden')",
                "SELECT CSVWRITE('/tmp/mcp_escape_leak.csv', 'SELECT v FROM hidden')",
                "SELECT * FROM CSVREAD('/etc/passwd')",
                "SELECT FILE_READ('/etc/passwd')",
                "SELECT FILE_WRITE('x', '/tmp/mcp_escape_leak')",
                "SCRIPT TO '/tmp/mcp_escape_leak.sql'",
                "RUNSCRIPT FROM '/tmp/mcp_escape_leak.sql'",
                "CREATE ALIAS RUN_IT AS 'String run(String c) throws Exception { return \"\" + Runtime.getRuntime().exec(c); }'",
                "SELECT LINK_SCHEMA('x', '', 'jdbc:h2:mem:x', 'sa', '', 'PUBLIC')",
                "SELECT NEXT VALUE FOR item_seq",
                "SELECT NEXTVAL('item_seq')",
                "SELECT name FROM items FOR UPDATE",
                "SELECT * FROM INFORMATION_SCHEMA.USERS",
                "SELECT id, v FROM hidden",
                "SELECT secret FROM items",
                "SELECT * FROM items",
                "SELECT name FROM items UNION SELECT v FROM hidden");
    }
}
