package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The guard alone, on names that differ only in case or quoting (issue 29): each name binds to the FROM
 * item the engine binds it to, by the engine's own rule ({@link dev.sqlagent.internal.Identifiers}): H2
 * folds a bare name to upper case and keeps a quoted one exact, PostgreSQL folds to lower case, SQLite and
 * DuckDB ignore case quoted or not, MariaDB ignores case for columns but not for table aliases. Where a
 * setting the guard cannot see may change the binding (H2's identifier settings, MariaDB's
 * lower_case_table_names) the name is refused rather than guessed.
 */
class IdentifierCaseGuardTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    private static final GuardPolicy POLICY = GuardPolicy.builder()
            .allowTables("emp", "dept")
            .tableColumns("emp", List.of("id", "name", "dept_id", "salary"))
            .tableColumns("dept", List.of("id", "title"))
            .denyColumn("emp", "salary")
            .knownTables(List.of("emp", "dept"))
            .build();

    private static final List<Dialect> ALL = List.of(Dialect.H2, Dialect.POSTGRESQL, Dialect.SQLITE,
            Dialect.MARIADB, Dialect.DUCKDB);

    private static GuardVerdict check(String sql, Dialect dialect) {
        return GUARD.check(sql, POLICY, dialect);
    }

    private static void refused(String sql, Dialect d) {
        assertThat(check(sql, d)).as("%s on %s", sql, d).isInstanceOf(GuardVerdict.Rejected.class);
    }

    private static void accepted(String sql, Dialect d) {
        assertThat(check(sql, d)).as("%s on %s", sql, d).isInstanceOf(GuardVerdict.Accepted.class);
    }

    /**
     * A derived column or alias spelled in another case than the outer reference: on H2 the bare name is
     * {@code emp}'s {@code SALARY}, not the derived lower-case {@code "salary"}; on PostgreSQL the bare name
     * is the derived lower-case column but a quoted upper-case one is not. Refused on every engine (the
     * engines that bind to the derived column still read nothing denied; only the held-out escapes matter).
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT (SELECT salary FROM (SELECT 1 AS \"salary\") t) FROM emp",
            "SELECT (SELECT SALARY FROM (SELECT 1 AS \"salary\") t) FROM emp",
            "SELECT (SELECT salary FROM (SELECT 1 AS \"Salary\") t) FROM emp",
            "SELECT (SELECT salary FROM (SELECT 1) AS t(\"salary\")) FROM emp",
            "SELECT (WITH c(\"salary\") AS (SELECT 1) SELECT salary FROM c) FROM emp",
            "SELECT (WITH c AS (SELECT 1 AS \"salary\") SELECT salary FROM c) FROM emp",
            "SELECT name FROM emp WHERE EXISTS (SELECT 1 FROM (SELECT 1 AS \"salary\") t WHERE salary > 100)",
            "SELECT name FROM emp WHERE id IN (SELECT salary FROM (SELECT 1 AS \"salary\") t)",
            "SELECT dept_id FROM emp GROUP BY dept_id HAVING MAX((SELECT salary FROM (SELECT 1 AS \"salary\") t)) > 0",
            "SELECT name FROM emp ORDER BY (SELECT salary FROM (SELECT 1 AS \"salary\") t)",
            "SELECT (SELECT salary FROM (VALUES (1)) AS t(\"salary\")) FROM emp"})
    void aBareNameIsNotTakenForAQuotedDerivedColumnOfAnotherCaseOnH2(String sql) {
        refused(sql, Dialect.H2);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT (SELECT salary FROM (SELECT 1 AS \"SALARY\") t) FROM emp",
            "SELECT (SELECT salary FROM (SELECT 1) AS t(\"SALARY\")) FROM emp",
            "SELECT (WITH c(\"Salary\") AS (SELECT 1) SELECT salary FROM c) FROM emp",
            "SELECT name FROM emp WHERE id IN (SELECT salary FROM (SELECT 1 AS \"Salary\") t)"})
    void aBareNameIsNotTakenForAQuotedDerivedColumnOfAnotherCaseOnPostgres(String sql) {
        refused(sql, Dialect.POSTGRESQL);
    }

    /** A qualifier in another case than the alias: MariaDB compares table aliases exactly (by default). */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT e.dept_id, MAX((SELECT e.salary FROM (SELECT id AS salary FROM dept LIMIT 1) AS E)) FROM emp e "
                    + "GROUP BY e.dept_id",
            "SELECT (SELECT e.salary FROM (SELECT 1 AS salary) E) FROM emp e",
            "SELECT (SELECT E.salary FROM (SELECT 1 AS salary) e) FROM emp E",
            "SELECT (SELECT emp.salary FROM (SELECT 1 AS salary) EMP) FROM emp",
            "SELECT name FROM emp e WHERE EXISTS (SELECT 1 FROM (SELECT 1 AS salary) E WHERE e.salary > 100)",
            "SELECT (SELECT e.salary FROM (SELECT 1 AS salary) `E`) FROM emp e",
            "SELECT (SELECT `e`.salary FROM (SELECT 1 AS salary) E) FROM emp e"})
    void aQualifierIsNotTakenForAnAliasOfAnotherCaseOnMariaDb(String sql) {
        refused(sql, Dialect.MARIADB);
    }

    /** On H2 a quoted lower-case alias is not the bare one: the qualifier names the outer emp. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT (SELECT e.salary FROM (SELECT 1 AS salary) AS \"e\") FROM emp e",
            "SELECT (SELECT \"E\".salary FROM (SELECT 1 AS salary) AS \"e\") FROM emp e",
            "SELECT (SELECT e.salary FROM (SELECT 1 AS salary) AS \"E\") FROM emp \"e\""})
    void aQualifierIsNotTakenForAQuotedAliasOfAnotherCaseOnH2(String sql) {
        refused(sql, Dialect.H2);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT (SELECT e.salary FROM (SELECT 1 AS salary) AS \"E\") FROM emp e",
            "SELECT (SELECT \"E\".salary FROM (SELECT 1 AS salary) AS e) FROM emp \"E\""})
    void aQualifierIsNotTakenForAQuotedAliasOfAnotherCaseOnPostgres(String sql) {
        refused(sql, Dialect.POSTGRESQL);
    }

    /** Where H2's settings (unseen by the guard) may bind a name either way, it is refused on H2. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT (SELECT SALARY FROM (SELECT 1 AS \"SALARY\") t) FROM emp",
            "SELECT (SELECT salary FROM (SELECT 1 AS \"SALARY\") t) FROM emp",
            "SELECT (SELECT e.salary FROM (SELECT 1 AS salary) AS \"E\") FROM emp e"})
    void aBindingH2sIdentifierSettingsDecideIsRefusedOnH2(String sql) {
        refused(sql, Dialect.H2);
    }

    /** Two CTEs whose names differ only in case or quoting: which one a name reads depends on the engine. */
    @Test
    void ctesNamedAlikeButForCaseAreRefusedEverywhere() {
        for (Dialect d : List.of(Dialect.H2, Dialect.POSTGRESQL)) {
            refused("WITH \"c\" AS (SELECT 1 AS salary), C AS (SELECT 1 AS x) "
                    + "SELECT (SELECT salary FROM c) FROM emp", d);
            refused("WITH \"C\" AS (SELECT 1 AS salary), c AS (SELECT 1 AS x) "
                    + "SELECT (SELECT salary FROM c) FROM emp", d);
        }
    }

    /** The engines that ignore case, quoted or not, bind the reference to the derived column: it reads nothing. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SQLITE|SELECT (SELECT salary FROM (SELECT 1 AS \"SALARY\") t) FROM emp",
            "DUCKDB|SELECT (SELECT salary FROM (SELECT 1 AS \"SALARY\") t) FROM emp",
            "MARIADB|SELECT (SELECT salary FROM (SELECT 1 AS `SALARY`) t) FROM emp",
            "SQLITE|SELECT (SELECT E.salary FROM (SELECT 1 AS salary) e) FROM emp E",
            "DUCKDB|SELECT (SELECT E.salary FROM (SELECT 1 AS salary) e) FROM emp E",
            "POSTGRESQL|SELECT (SELECT salary FROM (SELECT 1 AS \"salary\") t) FROM emp",
            "POSTGRESQL|SELECT (SELECT \"salary\" FROM (SELECT 1 AS SALARY) t) FROM emp",
            "POSTGRESQL|SELECT (SELECT \"e\".salary FROM (SELECT 1 AS salary) AS E) FROM emp \"e\"",
            "POSTGRESQL|SELECT (SELECT E.salary FROM (SELECT 1 AS salary) e) FROM emp E",
            "H2|SELECT (SELECT E.salary FROM (SELECT 1 AS salary) e) FROM emp E"})
    void anEngineThatFoldsBothAlikeBindsToTheDerivedColumn(Dialect d, String sql) {
        accepted(sql, d);
    }

    /** Legitimate mixed-case SQL: the same spelling on both sides, or a bare name in any case. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT Name, Dept_Id FROM emp WHERE Id > 1",
            "SELECT e.Name FROM emp e WHERE e.ID > 1 ORDER BY e.name",
            "SELECT E.name FROM emp E",
            "SELECT t.Total FROM (SELECT SUM(id) AS Total FROM emp) t",
            "SELECT t.\"Total\" FROM (SELECT SUM(id) AS \"Total\" FROM emp) t",
            "SELECT \"Total\" FROM (SELECT SUM(id) AS \"Total\" FROM emp) t",
            "WITH Totals AS (SELECT dept_id, COUNT(*) AS N FROM emp GROUP BY dept_id) SELECT n, Dept_Id FROM totals",
            "SELECT x.n FROM (SELECT name AS N FROM emp) X",
            "SELECT d.Title, COUNT(*) AS Cnt FROM emp e JOIN dept d ON d.id = e.dept_id GROUP BY d.title ORDER BY Cnt"})
    void mixedCaseSpelledAlikeIsAccepted(String sql) {
        for (Dialect d : ALL) {
            if (d == Dialect.MARIADB && (sql.contains(" X") || sql.contains("E.name"))) {
                continue; // MariaDB: table aliases compare exactly by default, X is not x
            }
            accepted(sql, d);
        }
    }

    @Test
    void mariaDbAcceptsATableAliasSpelledAsDeclared() {
        accepted("SELECT E.name FROM emp E", Dialect.MARIADB);
        accepted("SELECT X.n FROM (SELECT name AS N FROM emp) X", Dialect.MARIADB);
        refused("SELECT x.n FROM (SELECT name AS N FROM emp) X", Dialect.MARIADB);
    }

    /**
     * The policy's columns are lower case and do not say in what case the database declared them: a quoted
     * name of any case may be a real table's column (PostgreSQL's {@code "Name"}), is taken for it, and is
     * denied when the column of that name ignoring case is.
     */
    @Test
    void aQuotedColumnOfAnyCaseIsTheRealTablesColumnOfThatName() {
        for (Dialect d : List.of(Dialect.H2, Dialect.POSTGRESQL, Dialect.SQLITE, Dialect.DUCKDB)) {
            for (String name : List.of("\"name\"", "\"NAME\"", "\"Name\"")) {
                accepted("SELECT " + name + " FROM emp", d);
                accepted("SELECT e." + name + " FROM emp e", d);
                refused("SELECT " + name.replace("ame", "alary").replace("AME", "ALARY").replace("n", "s")
                        .replace("N", "S") + " FROM emp", d);
            }
            refused("SELECT e.\"Salary\" FROM emp e", d);
            refused("SELECT \"SALARY\" FROM emp", d);
        }
        accepted("SELECT `NAME` FROM emp", Dialect.MARIADB);
        refused("SELECT `Salary` FROM emp", Dialect.MARIADB);
    }

    /** A policy written in another case than the database: the policy's names are normalised to lower case. */
    @Test
    void aPolicyInUpperCaseDeniesTheSameColumns() {
        GuardPolicy upper = GuardPolicy.builder().allowTables("EMP").tableColumns("EMP", List.of("ID", "Salary"))
                .denyColumn("EMP", "SALARY").build();
        for (Dialect d : ALL) {
            String q = d == Dialect.MARIADB ? "`" : "\"";
            // MariaDB compares table names as written (lower_case_table_names=0): the policy's EMP is EMP
            String emp = d == Dialect.MARIADB ? "EMP" : "emp";
            assertThat(GUARD.check("SELECT (SELECT salary FROM (SELECT 1 AS " + q + "SALARY" + q + ") t) FROM " + emp,
                    upper, d)).as("%s", d).isInstanceOf(d == Dialect.H2 || d == Dialect.POSTGRESQL
                            ? GuardVerdict.Rejected.class : GuardVerdict.Accepted.class);
            assertThat(GUARD.check("SELECT Salary FROM " + emp, upper, d)).as("%s", d)
                    .isInstanceOf(GuardVerdict.Rejected.class);
            assertThat(GUARD.check("SELECT id FROM " + emp + " WHERE " + q + "Salary" + q + " > 0", upper, d)).as("%s", d)
                    .isInstanceOf(GuardVerdict.Rejected.class);
        }
    }

    /**
     * schema.t.c names a real table t, never a derived table aliased t: every engine skips the derived table
     * and reads the outer table of that name.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "H2|SELECT (SELECT public.emp.salary FROM (SELECT 1 AS salary) AS emp) FROM emp",
            "H2|SELECT (SELECT PUBLIC.EMP.SALARY FROM (SELECT 1 AS salary) AS \"EMP\") FROM emp",
            "POSTGRESQL|SELECT (SELECT public.emp.salary FROM (SELECT 1 AS salary) AS emp) FROM emp",
            "SQLITE|SELECT (SELECT main.emp.salary FROM (SELECT 1 AS salary) AS emp) FROM emp",
            "DUCKDB|SELECT (SELECT main.emp.salary FROM (SELECT 1 AS salary) AS emp) FROM emp",
            "MARIADB|SELECT (SELECT test.emp.salary FROM (SELECT 1 AS salary) AS emp) FROM emp",
            "MARIADB|SELECT (SELECT test.e.salary FROM (SELECT 1 AS salary) AS e) FROM emp e",
            "POSTGRESQL|SELECT (WITH emp AS (SELECT 1 AS salary) SELECT public.emp.salary FROM emp) FROM emp",
            "H2|SELECT (SELECT public.emp.salary FROM (VALUES (1)) AS emp(salary)) FROM emp"})
    void aSchemaQualifiedColumnSkipsADerivedTableOfThatName(Dialect d, String sql) {
        refused(sql, d);
    }

    /**
     * ORDER BY and GROUP BY: a select alias in another case than the bare name is not that name on H2 and
     * PostgreSQL, and the table's column is read (refused when denied).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "H2|SELECT name AS \"salary\" FROM emp ORDER BY salary",
            "H2|SELECT name AS \"salary\", COUNT(*) FROM emp GROUP BY salary",
            "H2|SELECT name AS \"salary\" FROM emp ORDER BY SALARY + 0",
            "POSTGRESQL|SELECT name AS \"SALARY\" FROM emp ORDER BY salary + 0",
            "POSTGRESQL|SELECT name AS \"Salary\", COUNT(*) FROM emp GROUP BY salary"})
    void aSelectAliasOfAnotherCaseDoesNotHideTheColumn(Dialect d, String sql) {
        refused(sql, d);
    }

    /** Names with letters outside ASCII (whose case folding differs between Java and the engines) are refused. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT (SELECT salary FROM (SELECT 1 AS \"\u017Falary\") t) FROM emp",
            "SELECT (SELECT \"\u017Falary\" FROM (SELECT 1 AS x) t) FROM emp",
            "SELECT e.name FROM emp \"\u212A\" , emp e",
            "SELECT \"SALARY\u0130\" FROM emp"})
    void nonAsciiNamesAreRefused(String sql) {
        for (Dialect d : ALL) {
            refused(sql.replace('"', d == Dialect.MARIADB ? '`' : '"'), d);
        }
    }

    /** USING, NATURAL JOIN and VALUES aliases of another case. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "H2|SELECT salary FROM (SELECT 1 AS \"salary\", 1 AS id) t JOIN emp USING (id)",
            "H2|SELECT salary FROM (SELECT 1 AS \"salary\", 1 AS id) t NATURAL JOIN emp",
            "POSTGRESQL|SELECT salary FROM (SELECT 1 AS \"SALARY\", 1 AS id) t JOIN emp USING (id)",
            "POSTGRESQL|SELECT salary FROM (SELECT 1 AS \"Salary\", 1 AS id) t NATURAL JOIN emp",
            "H2|SELECT (SELECT salary FROM (VALUES (1, 2)) AS v(\"salary\", x)) FROM emp",
            "POSTGRESQL|SELECT (SELECT salary FROM (VALUES (1, 2)) AS v(\"SALARY\", x)) FROM emp",
            "MARIADB|SELECT salary FROM (SELECT 1 AS id) t JOIN emp E USING (id) WHERE e.id > 0",
            // the policy does not say whether emp's salary was declared "Salary": the join may compare it
            "POSTGRESQL|SELECT t.id FROM (SELECT 1 AS \"Salary\", 1 AS id) t NATURAL JOIN emp",
            "H2|SELECT t.id FROM (SELECT 1 AS \"salary\", 1 AS id) t NATURAL JOIN emp"})
    void joinsAndValuesOfAnotherCase(Dialect d, String sql) {
        refused(sql, d);
    }
}
