package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The classes of parser differential of issue 11, each written in new SQL: the guard must check the
 * statement the engine runs, so text the parser and the engine read differently is refused, and names
 * are folded, pseudo-columns resolved and CTEs scoped as the engine does.
 */
class ParserDifferentialTest {

    private final SqlGuard guard = SqlGuard.create();
    private final GuardPolicy policy = GuardPolicy.builder()
            .allowTables("employees", "departments")
            .denyColumn("employees", "salary")
            .rowFilter("employees", "tenant", 7)
            .allowSelectStar(true)
            .build();

    private GuardVerdict check(String sql, Dialect dialect) {
        return guard.check(sql, policy, dialect);
    }

    private static List<ViolationType> types(GuardVerdict v) {
        assertThat(v).as("verdict for %s", v.sql()).isInstanceOf(GuardVerdict.Rejected.class);
        return ((GuardVerdict.Rejected) v).violations().stream().map(Violation::type).toList();
    }

    private static String sqlOf(GuardVerdict v) {
        assertThat(v).as("verdict for %s", v.sql()).isInstanceOf(GuardVerdict.Accepted.class);
        return ((GuardVerdict.Accepted) v).statement().sql();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // SQLite reads [..] as an identifier: a quote inside it would start a string for the parser
        "SELECT name FROM departments WHERE id = x[']-- ']|SQLITE",
        "SELECT name FROM departments WHERE name = [a'b]|SQLSERVER",
        "SELECT d.name FROM departments d WHERE d.id IN (SELECT [id] FROM [x' UNION SELECT salary FROM employees --])|SQLITE",
        // comments the engines may end at different places (those every engine ends alike are blanked)
        "SELECT name FROM departments // '|SQLITE",
        "SELECT name FROM departments /* x /* y */ UNION SELECT salary FROM employees */|POSTGRESQL",
        "SELECT name FROM departments /* x /* y */ UNION SELECT salary FROM employees */|H2",
        "SELECT name FROM departments # x|MYSQL",
        "SELECT name FROM departments /*! UNION SELECT salary FROM employees */|MARIADB",
        "SELECT 1--1 FROM departments|MYSQL",
        // quoting the parser reads differently
        "SELECT name FROM departments WHERE name = E'\\' OR 1=1'|POSTGRESQL",
        "SELECT name FROM departments WHERE name = U&'\\0027'|POSTGRESQL",
        "SELECT name FROM departments WHERE name = q'[x]'|ORACLE",
        "SELECT name FROM departments WHERE name = nq'[x]'|ORACLE",
        "SELECT name FROM departments WHERE name = $$x$$|POSTGRESQL",
        "SELECT name FROM departments WHERE name = $t$x$t$|POSTGRESQL",
        "SELECT name FROM departments WHERE name = _utf8'x'|MYSQL",
        "SELECT name FROM departments WHERE name = 'a\\' OR 1=1|MYSQL",
        "SELECT name FROM departments WHERE name = \"a\\\" UNION SELECT salary FROM employees\"|MYSQL",
        // a PostgreSQL backslash right before a quote moves the literal's end with standard_conforming_strings
        // (a backslash anywhere else changes only its value: PostgresBackslashTest)
        "SELECT name FROM departments WHERE name = 'a\\' OR 1=1 --'|POSTGRESQL",
        // numbers that run into names, database links
        "SELECT 1_000 FROM departments|POSTGRESQL",
        "SELECT 1e1x FROM departments|MYSQL",
        "SELECT name FROM employees@remote|ORACLE"})
    void textTheParserAndTheEngineReadDifferentlyIsRefused(String sql, Dialect dialect) {
        assertThat(check(sql, dialect)).isInstanceOf(GuardVerdict.Rejected.class);
    }

    @Test
    void squareBracketsAreIdentifiersOnSqliteAndSqlServerOnly() {
        assertThat(sqlOf(check("SELECT [name] FROM [departments] WHERE [id] = 1", Dialect.SQLITE)))
                .startsWith("SELECT [name] FROM [departments]");
        assertThat(sqlOf(check("SELECT [name] FROM [departments]", Dialect.SQLSERVER))).contains("[departments]");
        assertThat(types(check("SELECT [salary] FROM [employees]", Dialect.SQLITE))).contains(ViolationType.COLUMN_DENIED);
        // elsewhere [ is an array subscript and the row cap is not commented out
        assertThat(sqlOf(check("SELECT a[1] FROM departments", Dialect.POSTGRESQL))).endsWith("LIMIT 1000");
    }

    /** A backtick inside SQLite's [..] is a character of the name to SQLite and to the parser alike. */
    @Test
    void aBacktickInsideSqliteBracketsIsPartOfTheName() throws Exception {
        GuardPolicy policy = GuardPolicy.builder().allowTables("t").denyColumn("t", "se`cret").build();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite::memory:");
             java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t ([a`b] INT, [se`cret] INT)");
            s.execute("INSERT INTO t VALUES (4, 7)");
            GuardVerdict v = SqlGuard.create().check("SELECT [a`b] FROM t WHERE [a`b] > 1", policy, Dialect.SQLITE);
            try (java.sql.ResultSet rs = s.executeQuery(sqlOf(v))) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(4);
            }
            assertThat(SqlGuard.create().check("SELECT [se`cret] FROM t", policy, Dialect.SQLITE))
                    .isInstanceOf(GuardVerdict.Rejected.class);
            assertThat(SqlGuard.create().check("SELECT `se``cret` FROM t", policy, Dialect.SQLITE))
                    .isInstanceOf(GuardVerdict.Rejected.class);
        }
    }

    @Test
    void mysqlBackslashEscapesAreReadAsTheServerReadsThemAndRunWithoutBackslashes() {
        String run = sqlOf(check("SELECT name FROM departments WHERE name = 'it\\'s' OR name = 'a\\nb'", Dialect.MYSQL));
        assertThat(run).contains("'it''s'").doesNotContain("\\");
        // a backslash that would survive cannot be spelled for both NO_BACKSLASH_ESCAPES settings
        assertThat(check("SELECT name FROM departments WHERE name LIKE 'a\\%'", Dialect.MARIADB))
                .isInstanceOf(GuardVerdict.Rejected.class);
        // SQLite and H2 read the backslash as itself, as the parser does
        assertThat(sqlOf(check("SELECT name FROM departments WHERE name = 'C:\\dir'", Dialect.SQLITE))).contains("'C:\\dir'");
    }

    @Test
    void namesAreFoldedAsciiOnlyAndNamesThatFoldDifferentlyAreRefused() {
        assertThat(Names.lower("\u212Aelvin")).isEqualTo("\u212Aelvin");
        assertThat(Names.lower("EMPLOYEES")).isEqualTo("employees");
        assertThat(Names.foldsAlike("\u212A")).isFalse();
        assertThat(Names.foldsAlike("\u017F")).isFalse();
        assertThat(Names.foldsAlike("employees")).isTrue();
        // a CTE named with a KELVIN SIGN never hides a table named with k (the lexer refuses it first)
        assertThat(check("WITH \"wor\u212Aers\" AS (SELECT 1 AS x) SELECT x FROM \"wor\u212Aers\"", Dialect.SQLITE))
                .isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(check("SELECT name FROM departments d WHERE \"\u017Falary\" = 1", Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Rejected.class);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT rowid FROM employees|SQLITE",
        "SELECT e._rowid_ FROM employees e|SQLITE",
        "SELECT oid FROM employees|SQLITE",
        "SELECT name FROM employees ORDER BY rowid|SQLITE",
        "SELECT _rowid FROM employees|MYSQL",
        "SELECT _rowid FROM employees|MARIADB",
        "SELECT _ROWID_ FROM employees|H2",
        "SELECT ctid FROM employees|POSTGRESQL"})
    void pseudoColumnsOfATableWithDeniedColumnsAreDenied(String sql, Dialect dialect) {
        assertThat(types(check(sql, dialect))).contains(ViolationType.COLUMN_DENIED);
    }

    @Test
    void pseudoColumnsOfOtherTablesAreAllowed() {
        assertThat(check("SELECT rowid, name FROM departments", Dialect.SQLITE)).isInstanceOf(GuardVerdict.Accepted.class);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "WITH employees AS (SELECT 1 AS salary) SELECT salary FROM employees|SQLITE",
        "WITH RECURSIVE employees(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM employees WHERE n < 3) SELECT n FROM employees|H2",
        "WITH RECURSIVE secrets(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM secrets WHERE n < 3) SELECT n FROM secrets|H2",
        "WITH Departments AS (SELECT 1 AS id) SELECT id FROM Departments|POSTGRESQL",
        "WITH x AS (SELECT 1 AS a), payroll AS (SELECT a FROM x) SELECT a FROM payroll|SQLITE"})
    void aCteNamedLikeATableIsRefused(String sql, Dialect dialect) {
        GuardPolicy known = policy.toBuilder().knownTables(List.of("employees", "departments", "payroll", "secrets"))
                .build();
        GuardPolicy unknown = policy;
        GuardVerdict withCatalog = guard.check(sql, known, dialect);
        assertThat(withCatalog).isInstanceOf(GuardVerdict.Rejected.class);
        if (!sql.contains("payroll") && !sql.contains("secrets")) {
            assertThat(guard.check(sql, unknown, dialect)).isInstanceOf(GuardVerdict.Rejected.class);
        }
    }

    @Test
    void aRecursiveCteOnH2IsAllowedWhenTheCatalogSaysNoTableHasItsName() {
        GuardPolicy known = policy.toBuilder().knownTables(List.of("employees", "departments", "secrets")).build();
        String sql = "WITH RECURSIVE cnt(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM cnt WHERE n < 3) SELECT n FROM cnt";
        assertThat(guard.check(sql, known, Dialect.H2)).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(guard.check(sql, policy, Dialect.SQLITE)).isInstanceOf(GuardVerdict.Accepted.class);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT current_user FROM departments|POSTGRESQL",
        "SELECT session_user FROM departments|POSTGRESQL",
        "SELECT user FROM departments|POSTGRESQL",
        "SELECT current_schema FROM departments|POSTGRESQL",
        "SELECT current_catalog FROM departments|POSTGRESQL",
        "SELECT current_schema() FROM departments|POSTGRESQL",
        "SELECT version() FROM departments|POSTGRESQL",
        "SELECT current_database() FROM departments|POSTGRESQL",
        "SELECT 'employees'::regclass::oid FROM departments|POSTGRESQL",
        "SELECT CAST('employees' AS regclass) FROM departments|POSTGRESQL",
        "SELECT database() FROM departments|MYSQL",
        "SELECT schema() FROM departments|MARIADB",
        "SELECT user() FROM departments|MYSQL",
        "SELECT current_user FROM departments|MYSQL",
        "SELECT connection_id() FROM departments|MARIADB",
        "SELECT sqlite_version() FROM departments|SQLITE",
        "SELECT CURRENT_USER FROM departments|H2",
        "SELECT H2VERSION() FROM departments|H2",
        "SELECT user_name() FROM departments|SQLSERVER"})
    void sessionAndCatalogProbesAreRefusedByDefault(String sql, Dialect dialect) {
        assertThat(types(check(sql, dialect))).contains(ViolationType.FUNCTION_NOT_ALLOWED);
        GuardPolicy denylist = policy.toBuilder().functionPolicy(FunctionPolicy.denying("upper")).build();
        assertThat(guard.check(sql, denylist, dialect)).isInstanceOf(GuardVerdict.Rejected.class);
    }

    @Test
    void aProbeIsAllowedWhenNamed() {
        GuardPolicy allowing = policy.toBuilder().functionPolicy(FunctionPolicy.standard()
                .allowUnsafe(FunctionClass.READS_SESSION, "current_user")).build();
        assertThat(guard.check("SELECT current_user FROM departments", allowing, Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Accepted.class);
        // on SQLite, user is an ordinary column name
        assertThat(check("SELECT user FROM departments", Dialect.SQLITE)).isInstanceOf(GuardVerdict.Accepted.class);
    }

    @Test
    @Timeout(10)
    void bracketsCountAgainstTheNestingCapAndTheParseCapHoldsForDeepBrackets() {
        String deep = "SELECT a" + "[1".repeat(30) + "]".repeat(30) + " FROM departments";
        assertThat(types(check(deep, Dialect.POSTGRESQL))).contains(ViolationType.NESTING_TOO_DEEP);
        String cases = "SELECT " + "CASE WHEN a THEN ".repeat(30) + "1" + " END".repeat(30) + " FROM departments";
        assertThat(types(check(cases, Dialect.SQLITE))).contains(ViolationType.NESTING_TOO_DEEP);
        GuardPolicy loose = policy.toBuilder().maxNestingDepth(200).maxSqlLength(2_000_000)
                .parseTimeout(Duration.ofMillis(300)).build();
        String deeper = "SELECT a" + "[(1".repeat(95) + ")]".repeat(95) + " FROM departments";
        long start = System.nanoTime();
        guard.check(deeper, loose, Dialect.POSTGRESQL);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void theSqlThatRunsReadsTheSameWhenParsedAgain() {
        for (Dialect d : Set.of(Dialect.SQLITE, Dialect.POSTGRESQL, Dialect.MYSQL, Dialect.H2, Dialect.SQLSERVER)) {
            GuardVerdict v = check("SELECT e.name, d.name FROM employees e JOIN departments d ON e.dept = d.id", d);
            String run = sqlOf(v);
            assertThat(run).contains("?");
            GuardPolicy noDenied = GuardPolicy.builder().allowTables("employees", "departments")
                    .rowFilter("employees", "tenant", 7).allowSelectStar(true).build();
            GuardVerdict again = guard.check(run.replace("?", "7"), noDenied, d);
            assertThat(again).as(run).isInstanceOf(GuardVerdict.Accepted.class);
        }
    }
}
