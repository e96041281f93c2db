package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.engine.trino.TrinoPlanReader;
import dev.sqlagent.guard.engine.EngineReading;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link TrinoPlanReader} on the real cluster: the columns and tables Trino's own plans say a statement reads. */
class TrinoPlanReaderTest {
    private static Connection c;

    @BeforeAll
    static void open() throws SQLException {
        TrinoFixture.cluster();
        TrinoStaff.load();
        c = TrinoFixture.admin("memory", "staff");
    }

    @AfterAll
    static void close() throws SQLException {
        if (c != null) {
            c.close();
        }
    }

    private static EngineReading read(String sql) throws SQLException {
        EngineReading r = TrinoPlanReader.read(c, sql, 30);
        System.out.println(sql + "\n  -> " + r.describe());
        return r;
    }

    private static Set<String> columns(EngineReading r) {
        Set<String> out = new TreeSet<>();
        r.columns().forEach(x -> out.add(x.toString()));
        return out;
    }

    private static Set<String> tables(EngineReading r) {
        Set<String> out = new TreeSet<>();
        r.tables().forEach(x -> out.add(x.qualified()));
        return out;
    }

    @Test
    void aColumnReadOnlyInWhereIsRead() throws SQLException {
        EngineReading r = read("SELECT name FROM people WHERE ssn = '111-11-1111'");
        assertThat(columns(r)).containsExactly("memory.staff.people.name", "memory.staff.people.ssn");
        assertThat(tables(r)).containsExactly("memory.staff.people");
        assertThat(r.tables().iterator().next().resolvedUnqualified()).isTrue();
        assertThat(r.unreadable()).isEmpty();
        assertThat(r.writes()).isEmpty();
    }

    @Test
    void joinAndOrderByColumnsAreRead() throws SQLException {
        EngineReading r = read("SELECT p.name FROM people p JOIN depts d ON p.dept = d.id ORDER BY p.salary");
        assertThat(columns(r)).containsExactly("memory.staff.depts.id", "memory.staff.people.dept",
                "memory.staff.people.name", "memory.staff.people.salary");
        assertThat(r.unreadable()).isEmpty();
    }

    @Test
    void aColumnInsideALambdaIsRead() throws SQLException {
        EngineReading r = read("SELECT transform(array[ssn], x -> upper(x)) FROM people");
        assertThat(columns(r)).containsExactly("memory.staff.people.ssn");
        assertThat(r.functions()).contains("transform", "upper");
        assertThat(r.unreadable()).isEmpty();
    }

    @Test
    void maxByReadsBothArguments() throws SQLException {
        EngineReading r = read("SELECT dept, max_by(name, salary) FROM people GROUP BY dept");
        assertThat(columns(r)).containsExactly("memory.staff.people.dept", "memory.staff.people.name",
                "memory.staff.people.salary");
        assertThat(r.functions()).contains("max_by");
        assertThat(r.unreadable()).isEmpty();
    }

    @Test
    void aRowCastReadsItsFields() throws SQLException {
        EngineReading r = read("SELECT CAST(ROW(id, ssn) AS ROW(a integer, b varchar)) FROM people");
        assertThat(columns(r)).containsExactly("memory.staff.people.id", "memory.staff.people.ssn");
        assertThat(r.functions()).doesNotContain("row", "varchar");
        assertThat(r.unreadable()).isEmpty();
    }

    @Test
    void aViewIsReadAsTheTableAndColumnsUnderIt() throws SQLException {
        EngineReading r = read("SELECT id FROM people_ssn WHERE ssn LIKE '1%'");
        assertThat(tables(r)).containsExactly("memory.staff.people");
        assertThat(columns(r)).containsExactly("memory.staff.people.id", "memory.staff.people.ssn");
        assertThat(r.unreadable()).isEmpty();
    }

    @Test
    void aStarReadsEveryColumn() throws SQLException {
        EngineReading r = read("SELECT * FROM people");
        assertThat(columns(r)).containsExactly("memory.staff.people.dept", "memory.staff.people.id",
                "memory.staff.people.name", "memory.staff.people.salary", "memory.staff.people.ssn");
    }

    @Test
    void countStarOpensTheTableAndReadsNoColumn() throws SQLException {
        EngineReading r = read("SELECT count(*) FROM people");
        assertThat(tables(r)).containsExactly("memory.staff.people");
        assertThat(columns(r)).isEmpty();
        assertThat(r.functions()).contains("count");
        assertThat(r.unreadable()).isEmpty();
    }

    @Test
    void tablesOfOtherCatalogsCarryTheirCatalog() throws SQLException {
        EngineReading r = read("SELECT n.name, q.query FROM tpch.tiny.nation n, system.runtime.queries q");
        assertThat(tables(r)).containsExactly("system.runtime.queries", "tpch.tiny.nation");
        assertThat(columns(r)).containsExactly("system.runtime.queries.query", "tpch.tiny.nation.name");
        assertThat(r.tables()).allMatch(t -> !t.resolvedUnqualified());
        assertThat(r.unreadable()).isEmpty();
    }

    @Test
    void windowsUnionsSubqueriesAndUnnestAreUnderstood() throws SQLException {
        EngineReading r = read("SELECT name, row_number() OVER (PARTITION BY dept ORDER BY salary) FROM people "
                + "UNION ALL SELECT title, 1 FROM depts");
        assertThat(columns(r)).containsExactly("memory.staff.depts.title", "memory.staff.people.dept",
                "memory.staff.people.name", "memory.staff.people.salary");
        assertThat(r.functions()).contains("row_number");
        assertThat(r.unreadable()).isEmpty();
        EngineReading s = read("SELECT DISTINCT name FROM people WHERE id IN (SELECT id FROM depts) AND EXISTS "
                + "(SELECT 1 FROM depts d WHERE d.id = people.dept) ORDER BY name LIMIT 3");
        assertThat(columns(s)).containsExactly("memory.staff.depts.id", "memory.staff.people.dept",
                "memory.staff.people.id", "memory.staff.people.name");
        assertThat(s.unreadable()).isEmpty();
        EngineReading u = read("SELECT x FROM people CROSS JOIN UNNEST(array[name, ssn]) AS t(x) WHERE salary > 1");
        assertThat(columns(u)).containsExactly("memory.staff.people.name", "memory.staff.people.salary",
                "memory.staff.people.ssn");
        assertThat(u.unreadable()).isEmpty();
    }

    @Test
    void anUnnestJoinedToItsRowsIsReadAsTheColumnsItsArgumentsRead() throws SQLException {
        // Trino names the node after its join ("CrossJoin Unnest", "LeftJoin Unnest"); the arrays it expands are
        // computed under it, from the columns the scans assign
        EngineReading cross = read("SELECT name, x FROM people CROSS JOIN UNNEST(ARRAY[ssn]) AS u(x)");
        assertThat(columns(cross)).containsExactly("memory.staff.people.name", "memory.staff.people.ssn");
        assertThat(cross.unreadable()).isEmpty();
        EngineReading ordinality = read("SELECT x, n FROM people CROSS JOIN UNNEST(ARRAY[name]) WITH ORDINALITY"
                + " AS u(x, n)");
        assertThat(columns(ordinality)).containsExactly("memory.staff.people.name");
        assertThat(ordinality.unreadable()).isEmpty();
        EngineReading left = read("SELECT id, x FROM people LEFT JOIN UNNEST(ARRAY[salary]) AS u(x) ON true");
        assertThat(columns(left)).containsExactly("memory.staff.people.id", "memory.staff.people.salary");
        assertThat(left.unreadable()).isEmpty();
        EngineReading scalar = read("SELECT name, (SELECT max(x) FROM UNNEST(ARRAY[ssn]) AS u(x)) FROM people");
        assertThat(columns(scalar)).containsExactly("memory.staff.people.name", "memory.staff.people.ssn");
        assertThat(scalar.unreadable()).isEmpty();
        EngineReading sub = read("SELECT x FROM UNNEST((SELECT array_agg(ssn) FROM people)) AS u(x)");
        assertThat(columns(sub)).containsExactly("memory.staff.people.ssn");
        assertThat(sub.functions()).contains("array_agg");
        assertThat(sub.unreadable()).isEmpty();
        EngineReading constants = read("SELECT x FROM UNNEST(ARRAY[3, 1, 2]) AS u(x)");
        assertThat(constants.tables()).isEmpty();
        assertThat(constants.unreadable()).isEmpty();
    }

    @Test
    void aValuesListInFromIsReadAsTheRowsItSpells() throws SQLException {
        EngineReading joined = read("SELECT p.name, v.label FROM people p JOIN (VALUES (1, 'a'), (2, 'b')) AS"
                + " v(id, label) ON v.id = p.id");
        assertThat(columns(joined)).containsExactly("memory.staff.people.id", "memory.staff.people.name");
        assertThat(joined.unreadable()).isEmpty();
        EngineReading beside = read("SELECT x, name FROM (VALUES ('a'), ('b')) AS v(x) CROSS JOIN people WHERE"
                + " ssn LIKE '1%'");
        assertThat(columns(beside)).containsExactly("memory.staff.people.name", "memory.staff.people.ssn");
        assertThat(beside.unreadable()).isEmpty();
        EngineReading constants = read("SELECT upper(y) FROM (VALUES (1, 'a')) AS v(x, y)");
        assertThat(constants.tables()).isEmpty();
        assertThat(constants.unreadable()).isEmpty();
    }

    @Test
    void informationSchemaIsATableOfItsCatalog() throws SQLException {
        EngineReading r = read("SELECT table_name FROM information_schema.tables");
        assertThat(tables(r)).containsExactly("memory.information_schema.tables");
        assertThat(columns(r)).containsExactly("memory.information_schema.tables.table_name");
        assertThat(r.unreadable()).isEmpty();
    }

    @Test
    void writesAndStatementsThatAreNotQueriesAreWrites() throws SQLException {
        // only a query is explained (planning an INSERT would begin it on the connector; the reader's read-only
        // transaction stays as a second wall)
        assertThat(read("INSERT INTO depts SELECT id, name FROM people").writes()).containsExactly("statement INSERT INTO");
        assertThat(read("CREATE TABLE memory.staff.x AS SELECT 1 a").writes()).isNotEmpty();
        // the EXPLAIN of a CREATE TABLE AS ran in a read-only transaction: the memory connector made no table
        assertThat(read("CREATE TABLE memory.staff.x AS SELECT 1 a").writes()).isNotEmpty();
        try (java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SHOW TABLES FROM memory.staff LIKE 'x'")) {
            assertThat(rs.next()).isFalse();
        }
        assertThat(c.getAutoCommit()).isTrue();
        assertThat(read("DROP TABLE people").writes()).containsExactly("statement DROP TABLE");
        assertThat(read("SET SESSION query_max_run_time = '1h'").writes()).containsExactly("statement SET SESSION");
        assertThat(read("GRANT SELECT ON people TO USER bob").writes()).containsExactly("statement GRANT SELECT");
    }

    @Test
    void aTableFunctionIsNamedAndRefused() throws SQLException {
        EngineReading r = read("SELECT * FROM TABLE(sequence(start => 1, stop => 3))");
        assertThat(r.functions()).contains("sequence");
        assertThat(r.unreadable()).containsExactly("table function sequence");
        EngineReading t = read("SELECT * FROM TABLE(system.builtin.exclude_columns(input => TABLE(people), "
                + "columns => DESCRIPTOR(ssn)))");
        // Trino plans exclude_columns as a projection: no table function is left in the plan, and what it reads is
        // what its scan reads
        assertThat(t.unreadable()).isEmpty();
        assertThat(columns(t)).doesNotContain("memory.staff.people.ssn").contains("memory.staff.people.name");
    }

    @Test
    void onlyAQueryIsReadAnythingElseIsAStatement() throws SQLException {
        assertThat(read("SHOW CATALOGS").writes()).containsExactly("statement SHOW CATALOGS");
        assertThat(read("/* x */ DESCRIBE people").writes()).containsExactly("statement DESCRIBE PEOPLE");
        assertThat(read("EXPLAIN SELECT ssn FROM people").writes()).containsExactly("statement EXPLAIN SELECT");
        assertThat(read("(SELECT name FROM people)").writes()).isEmpty();
    }

    @Test
    void aStatementTrinoRefusesToPlanThrows() {
        assertThatThrownBy(() -> read("SELECT nme FROM people")).isInstanceOf(SQLException.class);
    }
}
