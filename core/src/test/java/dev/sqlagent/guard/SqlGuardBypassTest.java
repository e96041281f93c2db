package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.Dialect;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** One test per published bypass of keyword-list and first-statement guards. */
class SqlGuardBypassTest {

    private final SqlGuard guard = SqlGuard.create();
    private final GuardPolicy policy = GuardPolicy.builder()
            .allowTables("employees", "departments", "hr.projects")
            .denyColumn("employees", "salary")
            .build();

    private GuardVerdict check(String sql) {
        return check(sql, Dialect.POSTGRESQL);
    }

    private GuardVerdict check(String sql, Dialect dialect) {
        return guard.check(sql, policy, dialect);
    }

    private static List<ViolationType> types(GuardVerdict v) {
        assertThat(v).as("verdict for %s", v.sql()).isInstanceOf(GuardVerdict.Rejected.class);
        return ((GuardVerdict.Rejected) v).violations().stream().map(Violation::type).toList();
    }

    @Test
    void stackedStatementsAreRejected() {
        assertThat(types(check("SELECT name FROM employees; DELETE FROM employees")))
                .containsExactly(ViolationType.MULTIPLE_STATEMENTS, ViolationType.NOT_A_QUERY);
        assertThat(types(check("SELECT name FROM employees; SELECT name FROM departments")))
                .containsExactly(ViolationType.MULTIPLE_STATEMENTS);
    }

    @Test
    void stackedStatementsBehindAReadOnlyTransactionAreRejected() {
        assertThat(check("SET TRANSACTION READ ONLY; SELECT 1; COMMIT; DROP TABLE employees"))
                .isNotInstanceOf(GuardVerdict.Accepted.class);
    }

    @Test
    void writableCteIsRejected() {
        assertThat(types(check("WITH d AS (DELETE FROM employees RETURNING id) SELECT id FROM d")))
                .contains(ViolationType.WRITABLE_CTE);
        assertThat(types(check("WITH u AS (UPDATE employees SET name = 'x' RETURNING id) SELECT id FROM u")))
                .contains(ViolationType.WRITABLE_CTE);
        assertThat(types(check("WITH i AS (INSERT INTO employees (name) VALUES ('x') RETURNING id) SELECT id FROM i")))
                .contains(ViolationType.WRITABLE_CTE);
    }

    @Test
    void selectIntoIsRejected() {
        assertThat(types(check("SELECT name INTO stolen FROM employees"))).contains(ViolationType.INTO_CLAUSE);
        assertThat(types(check("SELECT name FROM employees INTO OUTFILE '/tmp/x'", Dialect.MYSQL)))
                .contains(ViolationType.INTO_CLAUSE);
    }

    @Test
    void intoDumpfileIsNeverAccepted() {
        assertThat(check("SELECT name FROM employees INTO DUMPFILE '/tmp/x'", Dialect.MYSQL))
                .isNotInstanceOf(GuardVerdict.Accepted.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT name FROM employees FOR UPDATE", "SELECT name FROM employees FOR SHARE",
        "SELECT name FROM employees FOR UPDATE SKIP LOCKED", "SELECT name FROM employees FOR UPDATE NOWAIT"})
    void lockingClausesAreRejected(String sql) {
        assertThat(types(check(sql))).contains(ViolationType.LOCKING_CLAUSE);
    }

    @Test
    void cteNamedLikeAForbiddenTableThatReadsItIsRejected() {
        assertThat(types(check("WITH salary_detail AS (SELECT * FROM salary_detail) SELECT * FROM salary_detail")))
                .contains(ViolationType.TABLE_NOT_ALLOWED);
        assertThat(types(check("WITH RECURSIVE employees AS (SELECT id FROM salary_detail) SELECT id FROM employees")))
                .contains(ViolationType.TABLE_NOT_ALLOWED);
    }

    @Test
    void cteNamedLikeAnAllowedTableIsRefused() {
        // a CTE that shadows a table is never needed, and H2 reads the real table inside a recursive one
        assertThat(types(check("WITH employees AS (SELECT name FROM departments) SELECT name FROM employees")))
                .contains(ViolationType.TABLE_NOT_ALLOWED);
    }

    @Test
    void derivedTableAliasShadowingAForbiddenTableStillChecksItsBody() {
        assertThat(types(check("SELECT s.amount FROM (SELECT amount FROM salary_detail) AS employees_s, employees s2, "
                + "(SELECT 1 AS one) AS s")))
                .contains(ViolationType.TABLE_NOT_ALLOWED);
        assertThat(types(check("SELECT x.name FROM (SELECT name FROM secret) AS employees JOIN employees x ON 1 = 1")))
                .containsExactly(ViolationType.TABLE_NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT name FROM employees WHERE id IN (SELECT employee_id FROM salary_detail)",
        "SELECT name FROM employees WHERE EXISTS (SELECT 1 FROM salary_detail)",
        "SELECT name, (SELECT max(amount) FROM salary_detail) FROM employees",
        "SELECT name FROM employees UNION SELECT name FROM salary_detail",
        "SELECT name FROM employees INTERSECT SELECT name FROM salary_detail",
        "SELECT name FROM employees EXCEPT SELECT name FROM salary_detail",
        "SELECT e.name FROM employees e JOIN salary_detail s ON s.id = e.id",
        "SELECT e.name FROM employees e LEFT JOIN (departments d JOIN salary_detail s ON 1 = 1) ON 1 = 1",
        "SELECT e.name FROM employees e, LATERAL (SELECT amount FROM salary_detail s WHERE s.id = e.id) x",
        "SELECT coalesce((SELECT amount FROM salary_detail LIMIT 1), 0) FROM employees",
        "SELECT name FROM employees ORDER BY (SELECT count(*) FROM salary_detail)",
        "SELECT name FROM employees GROUP BY name HAVING count(*) > (SELECT count(*) FROM salary_detail)",
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM salary_detail) THEN 1 END FROM employees",
        "WITH a AS (SELECT id FROM employees), b AS (SELECT id FROM salary_detail) SELECT id FROM a"})
    void aForbiddenTableAnywhereIsFound(String sql) {
        assertThat(types(check(sql))).contains(ViolationType.TABLE_NOT_ALLOWED);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT name FROM hr.salary_detail|POSTGRESQL",
        "SELECT name FROM \"salary_detail\"|POSTGRESQL",
        "SELECT name FROM \"hr\".\"salary_detail\"|POSTGRESQL",
        "SELECT name FROM [salary_detail]|SQLSERVER",
        "SELECT name FROM [hr].[salary_detail]|SQLSERVER",
        "SELECT name FROM `salary_detail`|MYSQL",
        "SELECT name FROM salary_detail_view|POSTGRESQL",
        "SELECT name FROM public.employees|POSTGRESQL",
        "SELECT name FROM \"Employees\"|POSTGRESQL",
        "SELECT name FROM \"employees\"|H2",
        "SELECT name FROM hr.employees|POSTGRESQL",
        "SELECT name FROM projects|POSTGRESQL",
        "SELECT name FROM otherdb.hr.projects|POSTGRESQL",
        "SELECT name FROM srv.db.hr.projects|SQLSERVER",
        "SELECT name FROM EMPLOYEES|MYSQL",
        "SELECT name FROM pg_catalog.pg_user|POSTGRESQL",
        "SELECT name FROM information_schema.tables|POSTGRESQL",
        "SELECT name FROM sqlite_master|SQLITE"})
    void qualifiedQuotedBracketedAndBacktickedVariantsAreMatchedAsTheDialectDoes(String sql, Dialect dialect) {
        assertThat(types(check(sql, dialect))).contains(ViolationType.TABLE_NOT_ALLOWED);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT name FROM \"employees\"|POSTGRESQL",
        "SELECT name FROM EMPLOYEES|POSTGRESQL",
        "SELECT name FROM \"EMPLOYEES\"|H2",
        "SELECT name FROM [employees]|SQLSERVER",
        "SELECT name FROM `employees`|MYSQL",
        "SELECT name FROM \"Employees\"|SQLITE",
        "SELECT name FROM hr.projects|POSTGRESQL",
        "SELECT name FROM \"hr\".\"projects\"|POSTGRESQL"})
    void theSameTableWrittenDifferentlyIsAccepted(String sql, Dialect dialect) {
        assertThat(check(sql, dialect)).isInstanceOf(GuardVerdict.Accepted.class);
    }

    @Test
    void aQuotedNameWithADotIsRefused() {
        // one name to the engine, split by JSqlParser into "hr"."projects": the two readings differ
        assertThat(types(check("SELECT name FROM \"hr.projects\""))).containsExactly(ViolationType.SUSPICIOUS_CHARACTER);
        assertThat(types(check("SELECT \"e.salary\" FROM employees e"))).containsExactly(ViolationType.SUSPICIOUS_CHARACTER);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT name FROM employees /* outer /* nested */ still comment */",
        "SELECT name FROM employees # mysql comment",
        "SELECT name /*! , salary */ FROM employees",
        "SELECT name /*M! , salary */ FROM employees",
        "SELECT name FROM employees /* no end",
        "SELECT name FROM employees -- a lone\r carriage return",
        "SELECT name FROM employees WHERE name = 'a'--'"})
    void commentsTheEnginesMayEndElsewhereAreRejected(String sql) {
        assertThat(types(check(sql, Dialect.MYSQL))).containsExactly(ViolationType.COMMENT);
    }

    /** A comment every engine ends alike is blanked: what runs is the guard's printing, without it. */
    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT name FROM employees -- comment",
        "SELECT name FROM employees /* c */",
        "WITH /* the names */ n AS (SELECT name FROM employees -- all of them\n) SELECT name FROM n",
        "SELECT name FROM employees /*+ INDEX(e) */"})
    void commentsEveryEngineEndsAlikeAreBlanked(String sql) {
        GuardVerdict v = check(sql, Dialect.MYSQL);
        assertThat(v).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(((GuardVerdict.Accepted) v).statement().sql()).doesNotContain("--", "/*", "comment", "INDEX");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT name, salary /* only the name */ FROM employees",
        "SELECT name FROM employees -- and not the salary\nWHERE salary > 0",
        "WITH /* c */ n AS (SELECT salary FROM employees) SELECT salary FROM n"})
    void aDeniedColumnNextToACommentIsStillRefused(String sql) {
        assertThat(types(check(sql, Dialect.MYSQL))).contains(ViolationType.COLUMN_DENIED);
    }

    @Test
    void commentMarkersInsideStringLiteralsAreNotComments() {
        assertThat(check("SELECT name FROM employees WHERE name = 'a -- b /* c */ # d'"))
                .isInstanceOf(GuardVerdict.Accepted.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT name FROM employees WHERE name = 'a\\' UNION SELECT password FROM users -- '",
        "SELECT name FROM employees WHERE name = E'a\\' OR 1=1'",
        "SELECT name FROM employees WHERE name = e'x'",
        "SELECT name FROM employees WHERE name = U&'\\0061'",
        "SELECT name FROM employees WHERE name = U&'x'",
        "SELECT name FROM employees WHERE name = $$x$$",
        "SELECT name FROM employees WHERE name = $tag$x$tag$",
        "SELECT name FROM employees WHERE name = _utf8'x'",
        "SELECT name FROM employees WHERE name = q'[x]'",
        "SELECT name FROM employees WHERE name = \"a\\\" OR 1=1\""})
    void backslashAndPrefixedStringsAreRejected(String sql) {
        assertThat(types(check(sql))).containsExactly(ViolationType.UNSAFE_STRING_LITERAL);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT name FROM generate_series(1, 10)",
        "SELECT name FROM pg_read_file('/etc/passwd')",
        "SELECT * FROM employees e, LATERAL unnest(e.tags) t",
        "SELECT name FROM json_each('{}')",
        "SELECT name FROM employees CROSS APPLY openjson(x)"})
    void tableFunctionsInFromAreRejected(String sql) {
        assertThat(check(sql)).isInstanceOf(GuardVerdict.Rejected.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT set_config('role', 'admin', false) FROM employees",
        "SELECT pg_sleep(10)",
        "SELECT name FROM employees WHERE pg_sleep(10) IS NULL",
        "SELECT pg_catalog.pg_sleep(10)",
        "SELECT \"pg_sleep\"(10)",
        "SELECT PG_READ_FILE('/etc/passwd')",
        "SELECT pg_ls_dir('.')",
        "SELECT lo_import('/etc/passwd')",
        "SELECT lo_export(1, '/tmp/x')",
        "SELECT dblink('host=evil', 'select 1')",
        "SELECT dblink_exec('x', 'drop table employees')",
        "SELECT query_to_xml('select * from salary_detail', true, true, '')",
        "SELECT sleep(5)",
        "SELECT benchmark(1000000, md5('a'))",
        "SELECT load_file('/etc/passwd')",
        "SELECT sys_exec('id')",
        "SELECT xp_cmdshell('dir')",
        "SELECT master.dbo.xp_cmdshell('dir')",
        "SELECT dbms_pipe.receive_message('a', 10) FROM employees",
        "SELECT utl_http.request('http://evil') FROM employees",
        "SELECT load_extension('evil.so')",
        "SELECT readfile('/etc/passwd')",
        "SELECT writefile('/tmp/x', 'y')",
        "SELECT nextval('employees_id_seq')",
        "SELECT setval('employees_id_seq', 1)",
        "SELECT pg_terminate_backend(123)",
        "SELECT name FROM employees WHERE id = (SELECT openrowset('SQLNCLI', 'x', 'y'))",
        "SELECT opendatasource('x', 'y')",
        "SELECT version()",
        "SELECT name FROM employees ORDER BY sleep(5)",
        "SELECT count(*) FILTER (WHERE pg_sleep(1) IS NULL) FROM employees",
        "SELECT row_number() OVER (ORDER BY pg_sleep(1)) FROM employees",
        "SELECT employees_seq.nextval FROM employees"})
    void dangerousAndUnlistedFunctionsAreRejected(String sql) {
        // a function the engine does not have at all is an invented name: refused, corrected, never run
        assertThat(types(check(sql))).containsAnyOf(ViolationType.FUNCTION_NOT_ALLOWED, ViolationType.UNKNOWN_FUNCTION);
    }

    @Test
    void dangerousFunctionsAreRejectedEvenUnderADenylist() {
        GuardPolicy open = policy.toBuilder().functionPolicy(FunctionPolicy.denying("md5")).build();
        assertThat(guard.check("SELECT initcap(name) FROM employees", open, Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Accepted.class);
        // session probes are not ordinary functions: refused unless named
        assertThat(guard.check("SELECT version() FROM employees", open, Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(guard.check("SELECT md5(name) FROM employees", open, Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(guard.check("SELECT pg_sleep(1) FROM employees", open, Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Rejected.class);
        // naming an unsafe function is a build error naming its class, not a silent allow
        assertThatThrownBy(() -> FunctionPolicy.standard().allowAlso("pg_sleep", "set_config"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("WAITS_OR_LOCKS");
        // the XML exports, text-search statistics and H2 file functions the held-out round got through
        for (String sql : List.of("SELECT query_to_xml('select * from salary', true, false, '') FROM employees",
                "SELECT table_to_xml('salary', true, false, '') FROM employees",
                "SELECT ts_stat('select to_tsvector(note) from salary') FROM employees")) {
            assertThat(guard.check(sql, open, Dialect.POSTGRESQL)).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
        }
        assertThat(guard.check("SELECT FILE_READ('/etc/passwd') FROM employees", open, Dialect.H2))
                .isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(guard.check("SELECT MASTER_POS_WAIT('log', 4) FROM employees", open, Dialect.MARIADB))
                .isInstanceOf(GuardVerdict.Rejected.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "EXPLAIN ANALYZE DELETE FROM employees",
        "EXPLAIN SELECT name FROM employees",
        "TABLE salary",
        "TABLE employees",
        "SET role = 'admin'",
        "CALL do_something()",
        "WAITFOR DELAY '00:00:10'",
        "DELETE FROM employees",
        "UPDATE employees SET name = 'x'",
        "INSERT INTO employees (name) VALUES ('x')",
        "DROP TABLE employees",
        "TRUNCATE employees",
        "CREATE TABLE x AS SELECT name FROM employees",
        "GRANT ALL ON employees TO public",
        "COPY employees TO '/tmp/x'",
        "VALUES (1)",
        "DO $$ BEGIN PERFORM 1; END $$",
        "EXEC xp_cmdshell 'dir'",
        "MERGE INTO employees e USING departments d ON (1 = 1) WHEN MATCHED THEN DELETE",
        "LOCK TABLE employees"})
    void statementsThatAreNotPlainQueriesAreNeverAccepted(String sql) {
        assertThat(check(sql)).isNotInstanceOf(GuardVerdict.Accepted.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT name FROM emplоyees",
        "SELECT name FROM \"emplоyees\"",
        "SELECT nаme FROM employees",
        "SELECT name FROM ｅmployees",
        "SELECT sаlary FROM employees",
        "SELECT name FROM employees\u200B",
        "SELECT name FROM employees WHERE name = 'a'\u0000"})
    void unicodeLookAlikeIdentifiersAreRejected(String sql) {
        assertThat(types(check(sql))).containsExactly(ViolationType.SUSPICIOUS_CHARACTER);
    }

    @Test
    void nonAsciiTextInsideStringLiteralsIsAccepted() {
        assertThat(check("SELECT name FROM employees WHERE name = 'José Müller 東京'"))
                .isInstanceOf(GuardVerdict.Accepted.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT salary FROM employees",
        "SELECT e.salary FROM employees e",
        "SELECT \"salary\" FROM employees",
        "SELECT x.\"SALARY\" FROM employees x",
        "SELECT name FROM employees WHERE salary > 100000",
        "SELECT name FROM employees ORDER BY salary",
        "SELECT d.name FROM departments d WHERE EXISTS (SELECT 1 FROM employees e WHERE e.salary > 5)",
        "SELECT m FROM (SELECT salary AS m FROM employees) t",
        "SELECT employees.salary FROM employees",
        "SELECT e FROM employees e",
        "SELECT row_to_json(e) FROM employees e",
        "SELECT name FROM employees JOIN departments USING (salary)"})
    void deniedColumnsAreRejectedThroughAliasesAndSubqueries(String sql) {
        assertThat(check(sql)).isInstanceOf(GuardVerdict.Rejected.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT * FROM employees",
        "SELECT e.* FROM employees e",
        "SELECT t.* FROM (SELECT * FROM employees) t",
        "SELECT name FROM employees NATURAL JOIN departments"})
    void starsAndNaturalJoinsOverATableWithDeniedColumnsAreRejectedEvenWhenStarIsAllowed(String sql) {
        GuardPolicy starAllowed = policy.toBuilder().allowSelectStar(true).build();
        assertThat(types(guard.check(sql, starAllowed, Dialect.POSTGRESQL))).contains(ViolationType.COLUMN_DENIED);
    }

    @Test
    void starIsRefusedByDefaultAndAllowedByPolicy() {
        assertThat(types(check("SELECT * FROM departments"))).containsExactly(ViolationType.SELECT_STAR);
        assertThat(types(check("SELECT d.* FROM departments d"))).containsExactly(ViolationType.SELECT_STAR);
        GuardPolicy starAllowed = policy.toBuilder().allowSelectStar(true).build();
        assertThat(guard.check("SELECT * FROM departments", starAllowed, Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(check("SELECT count(*) FROM employees")).isInstanceOf(GuardVerdict.Accepted.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT name FROM employees WHERE id = ?",
        "SELECT name FROM employees WHERE id = :id",
        "SELECT name FROM employees WHERE id = @id",
        "SELECT @@version",
        "SELECT name FROM employees WHERE id = {fn user()}"})
    void placeholdersVariablesAndJdbcEscapesAreRejected(String sql) {
        assertThat(check(sql, Dialect.MYSQL)).isInstanceOf(GuardVerdict.Rejected.class);
    }
}
