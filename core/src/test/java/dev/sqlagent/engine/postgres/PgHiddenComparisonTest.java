package dev.sqlagent.engine.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.FunctionPolicy;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineReading;
import dev.sqlagent.guard.engine.EngineVerdict;
import dev.sqlagent.testing.DatabaseServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL up to 16 prints a sub-plan as {@code (SubPlan n)} and hides the comparison of an {@code IN},
 * {@code ANY}, {@code ALL} or row sub-plan with the outer row. The engine check reads what it hides from the
 * planner's own tree ({@link PgPlanDump}), with the guard out of the way: a correlated subquery over a table
 * with a denied column is confirmed, and a hidden comparison that uses the denied column, a system column or
 * a function the policy refuses is a disagreement.
 */
class PgHiddenComparisonTest {

    private static final GuardPolicy POLICY = GuardPolicy.builder().allowTables("singer", "concert")
            .denyColumn("singer", "age").allowSelectStar(true).build();

    private static EngineVerdict check(DataSource ds, GuardPolicy policy, String sql) {
        return EngineCheck.create(ds, Dialect.POSTGRESQL).check(new GuardVerdict.Accepted(sql,
                new SqlStatement(sql, List.of()), Set.of("singer"), Set.of("singer.name")), policy);
    }

    @Test
    void correlatedSubqueriesOverATableWithADeniedColumnAreConfirmed() {
        DataSource ds = DatabaseServer.postgres().require().spider("concert_singer");
        for (String sql : List.of(
                "SELECT s.Name FROM singer s WHERE s.Singer_ID > (SELECT avg(t.Singer_ID) FROM singer t "
                        + "WHERE t.Country = s.Country)",
                "SELECT s.Name, (SELECT count(*) FROM concert c WHERE c.concert_ID = s.Singer_ID) AS n FROM singer s",
                "SELECT s.Name FROM singer s WHERE s.Singer_ID IN (SELECT c.concert_ID FROM concert c "
                        + "WHERE c.Theme = s.Name)",
                "SELECT s.Name FROM singer s WHERE s.Singer_ID IN (SELECT c.concert_ID FROM concert c)",
                "SELECT s.Name FROM singer s WHERE s.Singer_ID > ALL (SELECT c.concert_ID FROM concert c "
                        + "WHERE c.Theme = s.Country)",
                "SELECT s.Name FROM singer s WHERE EXISTS (SELECT 1 FROM concert c WHERE c.Theme = s.Name)",
                "SELECT s.Name FROM singer s WHERE NOT (s.Singer_ID = ANY (SELECT c.concert_ID FROM concert c "
                        + "WHERE c.Theme <> s.Name))")) {
            EngineVerdict v = check(ds, POLICY, sql);
            assertThat(v).as("%s: %s", sql, v).isInstanceOf(EngineVerdict.Confirmed.class);
        }
    }

    @Test
    void aHiddenComparisonThatUsesADeniedColumnIsADisagreement() {
        DataSource ds = DatabaseServer.postgres().require().spider("concert_singer");
        for (String sql : List.of(
                "SELECT s.Name FROM singer s WHERE s.Age IN (SELECT c.concert_ID FROM concert c WHERE c.Theme = s.Name)",
                "SELECT s.Name FROM singer s WHERE s.Age IN (SELECT c.concert_ID FROM concert c)",
                "SELECT s.Name FROM singer s WHERE s.Age > ALL (SELECT c.concert_ID FROM concert c "
                        + "WHERE c.Theme = s.Country)",
                "SELECT s.Name FROM singer s WHERE (s.Age, s.Name) = (SELECT c.concert_ID, c.Theme FROM concert c "
                        + "WHERE c.Theme = s.Name LIMIT 1)",
                "SELECT s.Name, s.Age + 1 IN (SELECT c.concert_ID FROM concert c WHERE c.Theme = s.Name) FROM singer s")) {
            EngineVerdict v = check(ds, POLICY, sql);
            assertThat(v).as("%s: %s", sql, v).isInstanceOf(EngineVerdict.Disagreement.class);
            assertThat(String.join(" ", ((EngineVerdict.Disagreement) v).reasons())).as(sql).contains("age");
        }
    }

    @Test
    void aHiddenComparisonThatUsesASystemColumnOrARefusedFunctionIsADisagreement() {
        DataSource ds = DatabaseServer.postgres().require().spider("concert_singer");
        EngineVerdict system = check(ds, POLICY, "SELECT s.Name FROM singer s WHERE s.tableoid::int IN "
                + "(SELECT c.concert_ID FROM concert c WHERE c.Theme = s.Name)");
        assertThat(system).as("%s", system).isInstanceOf(EngineVerdict.Disagreement.class);
        assertThat(String.join(" ", ((EngineVerdict.Disagreement) system).reasons())).contains("tableoid");

        GuardPolicy onlyCount = POLICY.toBuilder().functionPolicy(FunctionPolicy.allowOnly("count")).build();
        EngineVerdict function = check(ds, onlyCount, "SELECT s.Name FROM singer s WHERE md5(s.Name) IN "
                + "(SELECT c.Theme FROM concert c WHERE c.concert_ID = s.Singer_ID)");
        assertThat(function).as("%s", function).isInstanceOf(EngineVerdict.Disagreement.class);
        assertThat(String.join(" ", ((EngineVerdict.Disagreement) function).reasons())).contains("md5");
    }

    @Test
    void theSettingsThatPrintThePlanTreeDoNotOutliveTheCheckInTheCallersTransaction() throws Exception {
        DataSource ds = DatabaseServer.postgres().require().spider("concert_singer");
        String sql = "SELECT s.Name FROM singer s WHERE s.Singer_ID IN (SELECT c.concert_ID FROM concert c "
                + "WHERE c.Theme = s.Name)";
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            EngineReading reading = EngineCheck.create(ds, Dialect.POSTGRESQL).read(c, new SqlStatement(sql, List.of()));
            assertThat(reading.unreadable()).isEmpty();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT current_setting('debug_print_plan'), "
                         + "current_setting('client_min_messages')")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("off");
                assertThat(rs.getString(2)).isEqualTo("notice");
            }
            c.rollback();
        }
    }

    @Test
    void thePlanTreeIsReadAsPostgresqlPrintsIt() {
        String tree = "{PLANNEDSTMT :commandType 1 :planTree {SEQSCAN :qual ({SUBPLAN :subLinkType 2 :testexpr "
                + "{OPEXPR :opno 98 :args ({FUNCEXPR :funcid 2311 :funcformat 0 :args ({VAR :varno 1 :varattno 3})} "
                + "{PARAM :paramkind 1 :paramid 1}) :location 71} :plan_name SubPlan\\ 1 :args ({FUNCEXPR :funcid 480 "
                + ":funcformat 2 :args <>})})} :rtable ({RANGETBLENTRY :alias <> :eref {ALIAS :aliasname p "
                + ":colnames (\"id\" \"name\")} :rtekind 0 :relid 16702 :requiredPerms 2 :selectedCols (b 9 10 1)} "
                + "{RANGETBLENTRY :rtekind 0 :relid 16800 :requiredPerms 0 :selectedCols (b 8)} "
                + "{RANGETBLENTRY :rtekind 1 :relid 0 :requiredPerms 0 :selectedCols (b)}) "
                + ":constvalue 4 [ 1 0 0 0 0 0 0 0 ]}";
        PgPlanDump.Tree t = PgPlanDump.tree(tree);
        assertThat(t.selected()).containsOnlyKeys(16702L);
        assertThat(t.selected().get(16702L)).containsExactly(2, 3, -6);
        assertThat(t.functions()).containsExactly(2311L);
        assertThat(t.unreadable()).isEmpty();

        PgPlanDump.Tree hidden = PgPlanDump.tree("{SUBPLAN :testexpr {SQLVALUEFUNCTION :op 11} :args <>}");
        assertThat(hidden.unreadable()).containsExactly("a SQLVALUEFUNCTION in a sub-plan's hidden comparison");
    }
}
