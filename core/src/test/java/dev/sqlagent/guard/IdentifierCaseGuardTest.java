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

    /** A quoted name of another case than the policy's bare table is another table on H2 and PostgreSQL. */
    @Test
    void aQuotedColumnOfAnotherCaseIsNoColumnOfABareTable() {
        refused("SELECT \"name\" FROM emp", Dialect.H2);
        accepted("SELECT \"NAME\" FROM emp", Dialect.H2);
        accepted("SELECT \"name\" FROM emp", Dialect.POSTGRESQL);
        refused("SELECT \"NAME\" FROM emp", Dialect.POSTGRESQL);
        accepted("SELECT \"NAME\" FROM emp", Dialect.SQLITE);
        accepted("SELECT \"NAME\" FROM emp", Dialect.DUCKDB);
        accepted("SELECT `NAME` FROM emp", Dialect.MARIADB);
    }
}
