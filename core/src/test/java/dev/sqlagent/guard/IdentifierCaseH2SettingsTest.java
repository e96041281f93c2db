package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineVerdict;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * H2's identifier settings change how names of another case or quoting bind (issue 29): under
 * {@code DATABASE_TO_LOWER} a bare name folds to lower case, under {@code DATABASE_TO_UPPER=FALSE} it stays
 * as written, under {@code CASE_INSENSITIVE_IDENTIFIERS} every name ignores case. The guard cannot see the
 * setting; the engine check can. For each setting, each statement is run raw on a database whose
 * {@code emp.salary} holds a marker: where the answer carries it, the statement reads the denied column
 * under that setting, and both the guard (alone) and the engine check (alone, the guard out of the way) must
 * refuse it; where it runs without the marker, the engine check must confirm it.
 */
class IdentifierCaseH2SettingsTest {

    private static final String MARKER = "731900101";

    private static final List<String> STATEMENTS = List.of(
            "SELECT (SELECT salary FROM (SELECT 1 AS \"salary\") t) FROM emp",
            "SELECT (SELECT SALARY FROM (SELECT 1 AS \"SALARY\") t) FROM emp",
            "SELECT (SELECT salary FROM (SELECT 1 AS \"SALARY\") t) FROM emp",
            "SELECT (SELECT Salary FROM (SELECT 1 AS \"Salary\") t) FROM emp",
            "SELECT (SELECT Salary FROM (SELECT 1 AS salary) t) FROM emp",
            "SELECT (SELECT \"salary\" FROM (SELECT 1 AS x) t) FROM emp",
            "SELECT (SELECT \"SALARY\" FROM (SELECT 1 AS x) t) FROM emp",
            "SELECT (SELECT e.salary FROM (SELECT 1 AS salary) AS \"e\") FROM emp e",
            "SELECT (SELECT e.salary FROM (SELECT 1 AS salary) AS \"E\") FROM emp e",
            "SELECT (SELECT \"e\".salary FROM (SELECT 1 AS salary) AS t) FROM emp e",
            "SELECT (SELECT \"E\".salary FROM (SELECT 1 AS salary) AS t) FROM emp e",
            "SELECT (SELECT salary FROM (SELECT 1) AS t(\"SALARY\")) FROM emp",
            "SELECT (WITH c(\"salary\") AS (SELECT 1) SELECT salary FROM c) FROM emp",
            "SELECT (WITH c(\"SALARY\") AS (SELECT 1) SELECT SALARY FROM c) FROM emp",
            "SELECT (SELECT PUBLIC.emp.salary FROM (SELECT 1 AS salary) AS emp) FROM emp",
            "SELECT (SELECT salary FROM (VALUES (1)) AS t(\"Salary\")) FROM emp",
            "SELECT name, (SELECT salary FROM (SELECT 1 AS \"salary\") t) AS x FROM emp",
            "SELECT (SELECT salary FROM (SELECT 1 AS \"salary\") t ORDER BY \"salary\" LIMIT 1) FROM emp",
            "SELECT (SELECT MAX(salary) FROM (SELECT 1 AS \"salary\") t GROUP BY \"salary\") FROM emp",
            "SELECT (SELECT emp.salary FROM (SELECT 1 AS salary) \"emp\") FROM emp",
            "SELECT (SELECT EMP.salary FROM (SELECT 1 AS salary) \"EMP\") FROM emp",
            "SELECT (SELECT t.\"SALARY\" FROM (SELECT 1 AS \"salary\") t) FROM emp",
            "SELECT (WITH \"c\" AS (SELECT 1 AS salary) SELECT salary FROM C) FROM emp",
            "SELECT (WITH \"c\" AS (SELECT 1 AS x) SELECT salary FROM \"c\") FROM emp",
            "SELECT (SELECT salary FROM (SELECT 1 AS \"salary\") t WHERE salary > 0) FROM emp",
            "SELECT (SELECT x FROM (SELECT salary AS x FROM (SELECT 1 AS \"salary\") u) t) FROM emp");

    @ParameterizedTest
    @ValueSource(strings = {"", ";DATABASE_TO_LOWER=TRUE", ";DATABASE_TO_UPPER=FALSE",
            ";CASE_INSENSITIVE_IDENTIFIERS=TRUE", ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH",
            ";MODE=MySQL"})
    void eachLayerRefusesWhatReadsTheDeniedColumnUnderTheSetting(String settings) throws Exception {
        String url = "jdbc:h2:mem:case_settings_" + Math.abs(settings.hashCode()) + ";DB_CLOSE_DELAY=-1" + settings;
        DataSource ds = new dev.sqlagent.execution.UrlDataSource(url, "sa", "");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS emp");
            s.execute("CREATE TABLE emp (id INT, name VARCHAR(20), salary INT)");
            s.execute("INSERT INTO emp VALUES (1, 'ann', " + MARKER + ")");
        }
        GuardPolicy policy = GuardPolicy.builder().allowTables("emp")
                .tableColumns("emp", List.of("id", "name", "salary")).denyColumn("emp", "salary")
                .knownTables(List.of("emp")).build();
        EngineCheck check = EngineCheck.create(ds, Dialect.H2);
        SqlGuard guard = SqlGuard.create();
        List<String> wrong = new ArrayList<>();
        int harmful = 0;
        for (String sql : STATEMENTS) {
            Boolean leaks = leaks(ds, sql);
            if (leaks == null) {
                continue; // an error under this setting: reads nothing
            }
            EngineVerdict v = check.check(new GuardVerdict.Accepted(sql, new SqlStatement(sql, List.of()),
                    Set.of("emp"), Set.of("emp.name")), policy);
            if (leaks) {
                harmful++;
                if (!(v instanceof EngineVerdict.Disagreement)) {
                    wrong.add("ENGINE CHECK MISSED " + sql + "\n    " + v);
                }
                if (!(guard.check(sql, policy, Dialect.H2) instanceof GuardVerdict.Rejected)) {
                    wrong.add("GUARD MISSED " + sql);
                }
            } else if (!(v instanceof EngineVerdict.Confirmed)) {
                wrong.add("ENGINE CHECK REFUSED HARMLESS " + sql + "\n    " + v);
            }
        }
        System.out.printf("H2-SETTINGS '%s': %d statements, %d read the denied column, %d wrong%n", settings,
                STATEMENTS.size(), harmful, wrong.size());
        wrong.forEach(System.out::println);
        assertThat(harmful).as("statements that read the denied column under '%s'", settings).isPositive();
        assertThat(wrong).as("%s", String.join("\n", wrong)).isEmpty();
    }

    /** {@return whether the raw statement's answer carries the marker; null when it fails} */
    private static Boolean leaks(DataSource ds, String sql) {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            boolean found = false;
            while (rs.next()) {
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    found |= MARKER.equals(rs.getString(i));
                }
            }
            return found;
        } catch (SQLException e) {
            return null;
        }
    }
}
