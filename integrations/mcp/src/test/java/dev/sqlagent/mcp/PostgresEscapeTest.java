package dev.sqlagent.mcp;

import dev.sqlagent.execution.UrlDataSource;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;

/**
 * The escapes on PostgreSQL, in the schema {@code mcp_escape} of the shared server, as its superuser: the
 * class of the reference server's {@code COMMIT; …} escape, {@code SET TRANSACTION READ WRITE}, functions that
 * write or lock despite a read-only transaction ({@code nextval}, {@code setval}, {@code pg_advisory_lock},
 * {@code set_config}, {@code lo_import}, {@code dblink}, {@code query_to_xml}), files and the network.
 */
class PostgresEscapeTest extends EscapeSuite {

    private Servers.Server pg;

    private String url() {
        if (pg == null) {
            pg = Servers.postgres().require();
        }
        return Servers.withParameter(pg.url(), "currentSchema", "mcp_escape");
    }

    @Override
    DataSource admin() {
        return new UrlDataSource(url(), pg.user(), pg.password());
    }

    @Override
    void createTables(Statement s) throws SQLException {
        s.execute("SELECT pg_advisory_lock(hashtext('mcp_escape-setup'))");
        try {
            s.execute("CREATE SCHEMA IF NOT EXISTS mcp_escape");
            s.execute("CREATE TABLE IF NOT EXISTS mcp_escape.items (id INT PRIMARY KEY, name TEXT NOT NULL, secret TEXT, "
                    + "owner INT NOT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS mcp_escape.hidden (id INT PRIMARY KEY, v TEXT)");
            s.execute("CREATE SEQUENCE IF NOT EXISTS mcp_escape.item_seq");
            s.execute("INSERT INTO mcp_escape.items VALUES (1, 'lamp', 's1', 1), (2, 'desk', 's2', 1), (3, 'safe', 's3', 2)"
                    + " ON CONFLICT DO NOTHING");
            s.execute("INSERT INTO mcp_escape.hidden VALUES (1, 'payroll') ON CONFLICT DO NOTHING");
        } finally {
            s.execute("SELECT pg_advisory_unlock(hashtext('mcp_escape-setup'))");
        }
    }

    @Override
    List<String> stdioArguments() {
        return List.of(url(), pg.user(), pg.password().isEmpty() ? "" : pg.password(), "items", "items.secret",
                "items.owner=1", "broad");
    }

    @Override
    List<String> stateQueries() {
        return List.of(
                "SELECT id, name, secret, owner FROM mcp_escape.items ORDER BY id",
                "SELECT id, v FROM mcp_escape.hidden ORDER BY id",
                "SELECT last_value, is_called FROM mcp_escape.item_seq",
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'mcp_escape' ORDER BY 1",
                "SELECT count(*) FROM pg_largeobject_metadata",
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242");
    }

    @Override
    List<String> attacks() {
        return List.of(
                // the transaction ended from inside the query
                "COMMIT; DROP TABLE items",
                "COMMIT; SET TRANSACTION READ WRITE; DELETE FROM items",
                "END; DELETE FROM items",
                "ROLLBACK; DELETE FROM items",
                "SELECT 1; COMMIT; DELETE FROM items",
                "SET TRANSACTION READ WRITE",
                "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
                "SET default_transaction_read_only = off",
                "BEGIN READ WRITE; DELETE FROM items; COMMIT",
                // stacked statements
                "SELECT name FROM items; DELETE FROM items",
                "SELECT name FROM items;DROP TABLE items--",
                "SELECT name FROM items；DELETE FROM items",
                // leading and trailing comments
                // (a comment around a query is now blanked and the query answered: "/* read-only */ SELECT name
                // FROM items", "-- harmless\nSELECT …" and "SELECT name FROM items -- ; DELETE FROM items" read
                // only allowed names and run nothing after the comment, so they are no longer attacks here)
                "/* */ DELETE FROM items",
                "-- \n DELETE FROM items",
                "/* nested /* */ DELETE FROM items */ SELECT 1",
                // writes and DDL in every shape
                "DELETE FROM items",
                "WITH gone AS (DELETE FROM items RETURNING *) SELECT name FROM gone",
                "UPDATE items SET name = 'x'",
                "INSERT INTO items VALUES (9, 'x', 'y', 1)",
                "SELECT name INTO stolen FROM items",
                "CREATE TABLE stolen AS SELECT name FROM items",
                "TRUNCATE items",
                "DROP TABLE items",
                "EXPLAIN ANALYZE DELETE FROM items",
                "PREPARE zap AS DELETE FROM items",
                "DO $$ BEGIN DELETE FROM mcp_escape.items; END $$",
                "COPY items TO '/tmp/mcp_escape_leak.csv'",
                "COPY (SELECT name FROM items) TO PROGRAM 'id'",
                "SELECT name FROM items FOR UPDATE",
                "LOCK TABLE items",
                // functions that write, lock or reconfigure despite a read-only transaction
                "SELECT nextval('item_seq')",
                "SELECT setval('item_seq', 1000)",
                "SELECT pg_advisory_lock(4242)",
                "SELECT pg_try_advisory_lock(4242)",
                "SELECT set_config('default_transaction_read_only', 'off', false)",
                "SELECT set_config('search_path', 'public', false)",
                "SELECT lo_import('/etc/passwd')",
                "SELECT lo_create(0)",
                "SELECT * FROM dblink('dbname=test', 'DELETE FROM mcp_escape.items') AS t(x TEXT)",
                "SELECT dblink_exec('dbname=test', 'DELETE FROM mcp_escape.items')",
                "SELECT query_to_xml('DELETE FROM mcp_escape.items RETURNING 1', true, true, '')",
                "SELECT query_to_xml('SELECT v FROM mcp_escape.hidden', true, true, '')",
                "SELECT name FROM items WHERE query_to_xml('DELETE FROM mcp_escape.items', true, true, '') IS NOT NULL",
                "SELECT pg_terminate_backend(pg_backend_pid())",
                "SELECT pg_reload_conf()",
                "SELECT pg_sleep(30)",
                // files and the network
                "SELECT pg_read_file('/etc/passwd')",
                "SELECT pg_read_binary_file('/etc/passwd')",
                "SELECT pg_ls_dir('.')",
                "SELECT pg_stat_file('/etc/passwd')",
                "SELECT current_setting('data_directory')",
                "SELECT inet_server_addr()",
                "SELECT dblink_connect('host=203.0.113.1 dbname=x')",
                "SELECT * FROM pg_stat_activity",
                "SELECT usename, passwd FROM pg_shadow",
                // the policy's own boundaries
                "SELECT id, v FROM hidden",
                "SELECT secret FROM items",
                "SELECT * FROM items",
                "SELECT name FROM items UNION SELECT v FROM hidden",
                "SELECT (SELECT v FROM hidden LIMIT 1) AS v",
                "SELECT name FROM items WHERE id IN (SELECT id FROM hidden)",
                "WITH items AS (SELECT v AS name FROM hidden) SELECT name FROM items",
                "SELECT name FROM mcp_escape.hidden",
                "SELECT name FROM public.items",
                "SELECT row_to_json(i) FROM items i",
                "SELECT to_jsonb(items) FROM items",
                "SELECT i.secret FROM items AS i",
                "SELECT (items).secret FROM items",
                "SELECT name FROM items ORDER BY secret");
    }
}
