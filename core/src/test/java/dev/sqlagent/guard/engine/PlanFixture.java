package dev.sqlagent.guard.engine;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.testing.DatabaseServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * One small database, the same on every engine, for the engine check alone: {@code staff} with a denied
 * {@code salary}, {@code dept}, a forbidden {@code secret}, two allowed views over it ({@code pay_view}
 * merged, {@code pay_sum} grouped; on MariaDB {@code pay_sum} is a TEMPTABLE view the optimizer keeps),
 * {@code doubled} with columns generated from a denied one, and on SQLite a table without an integer primary
 * key and a full-text table. Statements are handed to {@link EngineCheck#check} as if the guard had accepted
 * them ({@link #pretend}), so each defence is tested as if the guard had missed.
 */
final class PlanFixture {

    /** Allows everything but {@code secret}; denies {@code salary} wherever it is. */
    static final GuardPolicy POLICY = GuardPolicy.builder()
            .allowTables("staff", "dept", "pay_view", "pay_sum", "doubled", "norow", "docs")
            .denyColumn("staff", "salary").denyColumn("doubled", "salary").build();

    /** The PostgreSQL schema and MariaDB database this fixture owns. */
    static final String SCRATCH = "plans_check";

    private static final Map<Dialect, DataSource> CREATED = new ConcurrentHashMap<>();

    private PlanFixture() {
    }

    /**
     * @param sql a statement
     * @return it, as if the guard had accepted it reading {@code staff.name} only
     */
    static GuardVerdict.Accepted pretend(String sql) {
        return new GuardVerdict.Accepted(sql, new SqlStatement(sql, List.of()), Set.of("staff"), Set.of("staff.name"));
    }

    /** @return the fixture on SQLite (a file under the JVM's temporary directory) */
    static DataSource sqlite() {
        return CREATED.computeIfAbsent(Dialect.SQLITE, d -> {
            try {
                Path dir = Files.createTempDirectory("plans-check");
                dir.toFile().deleteOnExit();
                Path file = dir.resolve("plans.sqlite");
                file.toFile().deleteOnExit();
                return fill(new UrlDataSource("jdbc:sqlite:" + file, null, null), sqliteDdl());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** @return the fixture on an in-memory H2 database */
    static DataSource h2() {
        return CREATED.computeIfAbsent(Dialect.H2, d -> fill(
                new UrlDataSource("jdbc:h2:mem:plans_check;DB_CLOSE_DELAY=-1", "sa", ""), List.of(
                        "CREATE TABLE staff (id INT PRIMARY KEY, name VARCHAR(40), salary INT, dept INT)",
                        "CREATE TABLE dept (id INT PRIMARY KEY, title VARCHAR(40))",
                        "CREATE TABLE secret (id INT, code VARCHAR(40))",
                        "CREATE TABLE doubled (id INT PRIMARY KEY, salary INT, twice INT GENERATED ALWAYS AS (salary * 2))",
                        "CREATE INDEX staff_dept ON staff (dept)",
                        "CREATE VIEW pay_view AS SELECT s.id, s.name, x.code FROM staff s JOIN secret x ON x.id = s.id",
                        "CREATE VIEW pay_sum AS SELECT x.code, count(*) AS n FROM staff s JOIN secret x ON x.id = s.id"
                                + " GROUP BY x.code",
                        "INSERT INTO staff VALUES (1, 'Ann', 100, 1), (2, 'Bob', 200, 2), (3, 'Cid', 300, 1)",
                        "INSERT INTO dept VALUES (1, 'Ops'), (2, 'Dev')",
                        "INSERT INTO secret VALUES (1, 's3cr3t')",
                        "INSERT INTO doubled (id, salary) VALUES (1, 10)")));
    }

    /** @return the fixture in PostgreSQL schema {@value #SCRATCH}; skips loudly without a server */
    static DataSource postgres() {
        DatabaseServer pg = DatabaseServer.postgres().require();
        return CREATED.computeIfAbsent(Dialect.POSTGRESQL, d -> fill(pg.scratch(SCRATCH), List.of(
                "DROP VIEW IF EXISTS pay_view, pay_sum",
                "DROP TABLE IF EXISTS staff, dept, secret, doubled",
                "CREATE TABLE staff (id integer PRIMARY KEY, name text, salary integer, dept integer)",
                "CREATE TABLE dept (id integer PRIMARY KEY, title text)",
                "CREATE TABLE secret (id integer, code text)",
                "CREATE TABLE doubled (id integer PRIMARY KEY, salary integer,"
                        + " twice integer GENERATED ALWAYS AS (salary * 2) STORED)",
                "CREATE INDEX staff_dept ON staff (dept)",
                "CREATE VIEW pay_view AS SELECT s.id, s.name, x.code FROM staff s JOIN secret x ON x.id = s.id",
                "CREATE VIEW pay_sum AS SELECT x.code, count(*) AS n FROM staff s JOIN secret x ON x.id = s.id"
                        + " GROUP BY x.code",
                "INSERT INTO staff VALUES (1, 'Ann', 100, 1), (2, 'Bob', 200, 2), (3, 'Cid', 300, 1)",
                "INSERT INTO dept VALUES (1, 'Ops'), (2, 'Dev')",
                "INSERT INTO secret VALUES (1, 's3cr3t')",
                "INSERT INTO doubled (id, salary) VALUES (1, 10)",
                "ANALYZE")));
    }

    /** @return the fixture in MariaDB database {@value #SCRATCH}; skips loudly without a server */
    static DataSource mariadb() {
        DatabaseServer maria = DatabaseServer.mariadb().require();
        return CREATED.computeIfAbsent(Dialect.MARIADB, d -> fill(maria.scratch(SCRATCH), List.of(
                "DROP VIEW IF EXISTS pay_view, pay_sum",
                "DROP TABLE IF EXISTS staff, dept, secret, doubled",
                "CREATE TABLE staff (id INT PRIMARY KEY, name VARCHAR(40), salary INT, dept INT, KEY staff_dept (dept))",
                "CREATE TABLE dept (id INT PRIMARY KEY, title VARCHAR(40))",
                "CREATE TABLE secret (id INT, code VARCHAR(40))",
                "CREATE TABLE doubled (id INT PRIMARY KEY, salary INT, twice INT AS (salary * 2) STORED,"
                        + " half INT AS (salary / 2) VIRTUAL)",
                "CREATE VIEW pay_view AS SELECT s.id, s.name, x.code FROM staff s JOIN secret x ON x.id = s.id",
                "CREATE ALGORITHM=TEMPTABLE VIEW pay_sum AS SELECT x.code, count(*) AS n FROM staff s"
                        + " JOIN secret x ON x.id = s.id GROUP BY x.code",
                "INSERT INTO staff VALUES (1, 'Ann', 100, 1), (2, 'Bob', 200, 2), (3, 'Cid', 300, 1)",
                "INSERT INTO dept VALUES (1, 'Ops'), (2, 'Dev')",
                "INSERT INTO secret VALUES (1, 's3cr3t')",
                "INSERT INTO doubled (id, salary) VALUES (1, 10)")));
    }

    private static List<String> sqliteDdl() {
        List<String> ddl = new ArrayList<>(List.of(
                "CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT, salary INTEGER, dept INTEGER)",
                "CREATE TABLE dept (id INTEGER PRIMARY KEY, title TEXT)",
                "CREATE TABLE secret (id INTEGER, code TEXT)",
                "CREATE TABLE doubled (id INTEGER PRIMARY KEY, salary INTEGER,"
                        + " twice INTEGER GENERATED ALWAYS AS (salary * 2) STORED,"
                        + " half INTEGER GENERATED ALWAYS AS (salary / 2) VIRTUAL)",
                "CREATE TABLE norow (a TEXT, b TEXT)",
                "CREATE VIRTUAL TABLE docs USING fts5(title, body)",
                "CREATE INDEX staff_dept ON staff (dept)",
                "CREATE VIEW pay_view AS SELECT s.id, s.name, x.code FROM staff s JOIN secret x ON x.id = s.id",
                "CREATE VIEW pay_sum AS SELECT x.code, count(*) AS n FROM staff s JOIN secret x ON x.id = s.id"
                        + " GROUP BY x.code",
                "INSERT INTO staff VALUES (1, 'Ann', 100, 1), (2, 'Bob', 200, 2), (3, 'Cid', 300, 1)",
                "INSERT INTO dept VALUES (1, 'Ops'), (2, 'Dev')",
                "INSERT INTO secret VALUES (1, 's3cr3t')",
                "INSERT INTO doubled (id, salary) VALUES (1, 10)",
                "INSERT INTO norow VALUES ('a', 'b')",
                "INSERT INTO docs VALUES ('Ops handbook', 'how the team works')"));
        return ddl;
    }

    private static DataSource fill(DataSource ds, List<String> ddl) {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            for (String sql : ddl) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the plan fixture: " + e.getMessage(), e);
        }
        return ds;
    }
}
