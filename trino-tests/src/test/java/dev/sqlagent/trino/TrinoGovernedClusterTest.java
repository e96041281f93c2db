package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.engine.trino.TrinoErrors;
import dev.sqlagent.engine.trino.TrinoPlanReader;
import dev.sqlagent.guard.engine.EngineReading;
import dev.sqlagent.engine.trino.TrinoPrivileges;
import dev.sqlagent.engine.trino.TrinoRules;
import dev.sqlagent.engine.trino.TrinoSession;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.trinocluster.TrinoCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A second cluster whose coordinator enforces the file-based access control {@link TrinoRules} generates from a
 * policy, and {@link TrinoPrivileges} on it and on the open shared cluster.
 */
class TrinoGovernedClusterTest {
    private static final String ANALYST = "analyst";
    private static final GuardPolicy POLICY = GuardPolicy.builder()
            .allowTables("people", "staff.depts")
            .denyColumn("people", "ssn")
            .rowFilter("people", "dept", 1)
            .build();
    private static TrinoCluster governed;

    @BeforeAll
    static void start() throws Exception {
        TrinoFixture.cluster();
        Path rules = Files.createTempFile("sqlagent-trino-rules-", ".json");
        Files.writeString(rules, TrinoRules.forUser(POLICY, ANALYST, "memory", "staff")
                .withAdmin(TrinoFixture.ADMIN).toJson(), StandardCharsets.UTF_8);
        governed = TrinoCluster.start(1, rules);
        try (Connection admin = DriverManager.getConnection(governed.jdbcUrl("memory", "default"), TrinoFixture.ADMIN,
                null)) {
            TrinoStaff.load(admin);
        }
    }

    @AfterAll
    static void stop() {
        if (governed != null) {
            governed.close();
        }
    }

    private static Connection analyst() throws SQLException {
        return DriverManager.getConnection(governed.jdbcUrl("memory", "staff"), ANALYST, null);
    }

    private static List<String> column(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static SQLException refusal(Connection c, String sql) {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
        } catch (SQLException e) {
            return e;
        }
        throw new AssertionError("the cluster ran " + sql);
    }

    @Test
    void theRulesAreWhatThePolicySays() {
        String json = TrinoRules.forUser(POLICY, ANALYST, "memory", "staff").toJson();
        assertThat(json).contains("\"filter\":\"\\\"dept\\\" = 1\"")
                .contains("{\"name\":\"ssn\",\"allow\":false}")
                .contains("\"table\":\"\\\\Qdepts\\\\E\"")
                .doesNotContain("owner\":true");
    }

    @Test
    void anAllowedTableIsReadableWithItsRowFilterApplied() throws SQLException {
        try (Connection c = analyst()) {
            assertThat(column(c, "SELECT name FROM people ORDER BY name")).containsExactly("Ada", "Cy");
            assertThat(column(c, "SELECT title FROM depts ORDER BY id")).containsExactly("Research", "Sales");
        }
    }

    @Test
    void aDeniedColumnIsRefusedEvenThroughAStar() throws SQLException {
        try (Connection c = analyst()) {
            SQLException e = refusal(c, "SELECT ssn FROM people");
            assertThat(e.getMessage()).contains("Access Denied");
            assertThat(TrinoErrors.classify(e)).isEqualTo(ErrorCategory.PERMISSION_DENIED);
            assertThat(TrinoErrors.classify(refusal(c, "SELECT * FROM people")))
                    .isEqualTo(ErrorCategory.PERMISSION_DENIED);
            assertThat(TrinoErrors.classify(refusal(c, "SELECT count(*) FROM people WHERE ssn LIKE '1%'")))
                    .isEqualTo(ErrorCategory.PERMISSION_DENIED);
        }
    }

    @Test
    void otherTablesAndCatalogsAreRefused() throws SQLException {
        try (Connection c = analyst()) {
            assertThat(TrinoErrors.classify(refusal(c, "SELECT * FROM people_ssn")))
                    .isEqualTo(ErrorCategory.PERMISSION_DENIED);
            assertThat(TrinoErrors.classify(refusal(c, "SELECT name FROM tpch.tiny.nation")))
                    .isIn(ErrorCategory.PERMISSION_DENIED, ErrorCategory.TABLE_NOT_FOUND);
            assertThat(TrinoErrors.classify(refusal(c, "SELECT query FROM system.runtime.queries")))
                    .isIn(ErrorCategory.PERMISSION_DENIED, ErrorCategory.TABLE_NOT_FOUND);
            assertThat(column(c, "SHOW CATALOGS")).containsExactly("memory");
        }
    }

    @Test
    void theLoginCanBoundItsOwnSessionButNotWrite() throws SQLException {
        try (Connection c = analyst(); Statement s = c.createStatement()) {
            TrinoSession.enter(c, new TrinoSession.Limits(Duration.ofMinutes(1), 1 << 20, 1 << 26));
            assertThat(column(c, "SELECT count(*) FROM people")).containsExactly("2");
            TrinoSession.leave(c);
            assertThat(TrinoErrors.classify(refusal(c, "SET SESSION join_distribution_type = 'BROADCAST'")))
                    .isEqualTo(ErrorCategory.PERMISSION_DENIED);
            try {
                s.executeUpdate("INSERT INTO depts VALUES (3, 'x')");
                throw new AssertionError("the insert ran");
            } catch (SQLException e) {
                assertThat(TrinoErrors.classify(e)).isEqualTo(ErrorCategory.PERMISSION_DENIED);
            }
        }
    }

    @Test
    void thePlanReaderWorksAsTheLoginAndShowsTheRowFiltersColumn() throws SQLException {
        try (Connection c = analyst()) {
            EngineReading r = TrinoPlanReader.read(c, "SELECT name FROM people", 30);
            List<String> columns = new ArrayList<>();
            r.columns().forEach(x -> columns.add(x.toString()));
            // the cluster's row filter (dept = 1) is planned into the scan: its column is read too
            assertThat(columns).containsExactlyInAnyOrder("memory.staff.people.name", "memory.staff.people.dept");
            assertThat(r.unreadable()).isEmpty();
            assertThat(r.writes()).isEmpty();
            SQLException e = null;
            try {
                TrinoPlanReader.read(c, "SELECT ssn FROM people", 30);
            } catch (SQLException x) {
                e = x;
            }
            assertThat((Object) e).as("planning a denied column is refused").isNotNull();
            assertThat(TrinoErrors.classify(e)).isEqualTo(ErrorCategory.PERMISSION_DENIED);
        }
    }

    @Test
    void theAuditFindsNothingBeyondThePolicyOnTheGovernedCluster() throws SQLException {
        try (Connection c = analyst()) {
            TrinoPrivileges.Report r = TrinoPrivileges.audit(c, POLICY);
            assertThat(r.login()).isEqualTo(ANALYST);
            assertThat(r.catalogs()).containsExactly("memory");
            assertThat(r.forbiddenTables()).isEmpty();
            assertThat(r.deniedColumns()).isEmpty();
            assertThat(r.guardIsOnlyDefence()).isFalse();
        }
    }

    @Test
    void theAuditFindsEverythingBeyondThePolicyOnTheOpenCluster() throws SQLException {
        TrinoStaff.load();
        try (Connection c = TrinoFixture.admin("memory", "staff")) {
            TrinoPrivileges.Report r = TrinoPrivileges.audit(c, POLICY);
            assertThat(r.catalogs()).contains("memory", "system", "tpch");
            assertThat(r.forbiddenTables()).contains("memory.staff.people_ssn", "tpch.tiny.nation",
                    "system.runtime.queries").doesNotContain("memory.staff.people", "memory.staff.depts");
            assertThat(r.deniedColumns()).containsExactly("memory.staff.people.ssn");
            assertThat(r.guardIsOnlyDefence()).isTrue();
        }
    }
}
