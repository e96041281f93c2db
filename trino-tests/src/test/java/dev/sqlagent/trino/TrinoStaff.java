package dev.sqlagent.trino;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** The suites' fixture tables in the shared cluster's {@code memory} catalog: {@code memory.staff.people} and {@code depts} (apart from TrinoHr's {@code memory.hr}, the hostile twins). */
final class TrinoStaff {
    private static boolean loaded;

    private TrinoStaff() {
    }

    /**
     * Creates the schema, its tables, rows and a view, once per cluster.
     *
     * @throws SQLException if the cluster refuses the set-up
     */
    static synchronized void load() throws SQLException {
        if (loaded) {
            return;
        }
        try (Connection c = TrinoFixture.admin("memory", "default")) {
            load(c);
        }
        loaded = true;
    }

    /**
     * Creates (anew) the schema, its tables, rows and a view on a cluster.
     *
     * @param c a connection allowed to create them
     * @throws SQLException if the cluster refuses the set-up
     */
    static void load(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS memory.staff");
            // the memory connector cannot delete rows: the tables are made anew
            s.execute("DROP VIEW IF EXISTS memory.staff.people_ssn");
            s.execute("DROP TABLE IF EXISTS memory.staff.people");
            s.execute("DROP TABLE IF EXISTS memory.staff.depts");
            s.execute("CREATE TABLE memory.staff.people (id integer, name varchar, dept integer, salary double, "
                    + "ssn varchar)");
            s.execute("CREATE TABLE memory.staff.depts (id integer, title varchar)");
            s.execute("INSERT INTO memory.staff.people VALUES (1, 'Ada', 1, 100.0, '111-11-1111'), "
                    + "(2, 'Bob', 2, 90.0, '222-22-2222'), (3, 'Cy', 1, 80.0, '333-33-3333')");
            s.execute("INSERT INTO memory.staff.depts VALUES (1, 'Research'), (2, 'Sales')");
            s.execute("CREATE OR REPLACE VIEW memory.staff.people_ssn AS SELECT id, ssn FROM memory.staff.people");
        }
    }
}
