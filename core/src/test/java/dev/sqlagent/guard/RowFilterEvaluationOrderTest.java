package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.engine.EngineCheck;
import dev.sqlagent.guard.engine.EngineVerdict;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Held-out class "row filter evaluation order" (found by {@link HostileHeldOutTest}): MariaDB and MySQL merge
 * the row filter's derived table {@code (SELECT … FROM pets WHERE pets.owner = ?) AS pets} into the query around
 * it and evaluate that query's conditions <em>before</em> the filter's ({@code WHERE exp(CASE WHEN owner = 'bob'
 * THEN 1000 ELSE 1 END) > 0 AND owner = 'alice'}), so a condition that errors on a filtered-out row tells the
 * attacker that such a row exists and what it holds. The guard now fences the filter's derived table with a
 * {@code LIMIT} on those engines (materialised, filtered first, no condition pushdown), and the MariaDB reader
 * of the engine check reads the semi join MariaDB prints around such a fenced table.
 */
class RowFilterEvaluationOrderTest {

    private static final String ATTACK = "SELECT count(*) FROM pets WHERE EXP(CASE WHEN owner = 'bob' THEN 1000 ELSE 1 END) > 0";
    private static final String SEMI_JOIN = "SELECT kind FROM pets WHERE kind IN (SELECT kind FROM pets WHERE age > 0)";

    private static GuardVerdict.Accepted accept(String sql, Dialect d) {
        GuardVerdict v = SqlGuard.create().check(sql, HostileFixture.policy(d, FunctionPolicy.standard()), d);
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
        return (GuardVerdict.Accepted) v;
    }

    /** The guard alone: the filter's derived table carries the fence on MariaDB and MySQL, and only there. */
    @Test
    void theGuardFencesTheRowFilterOnMariadbAndMysql() {
        for (Dialect d : List.of(Dialect.MARIADB, Dialect.MYSQL)) {
            String sql = accept(ATTACK, d).statement().sql();
            assertThat(sql).as(d.name()).contains("WHERE pets.owner = ? LIMIT 9223372036854775807) AS pets");
        }
        for (Dialect d : List.of(Dialect.POSTGRESQL, Dialect.H2, Dialect.SQLITE, Dialect.DUCKDB)) {
            assertThat(accept(ATTACK, d).statement().sql()).as(d.name()).doesNotContain("9223372036854775807");
        }
    }

    /**
     * On the MariaDB twins: the fenced statement answers alike on both (before, twin A, which has a row of
     * {@code bob}, failed with "DOUBLE value is out of range" and twin B answered); the unfenced one shows the
     * class is real on this server. The engine check alone confirms the fenced statements, the semi join included.
     */
    @Test
    void onMariadbTheFilterIsEvaluatedFirst() throws Exception {
        HostileFixture.Twins twins = HostileFixture.twins(Dialect.MARIADB);
        GuardVerdict.Accepted attack = accept(ATTACK, Dialect.MARIADB);
        for (int w = 0; w < 2; w++) {
            try (Connection c = twins.twin(w).getConnection()) {
                assertThat(count(c, attack.statement())).isEqualTo(6);
            }
        }
        String unfenced = attack.statement().sql().replace(" LIMIT 9223372036854775807", "");
        try (Connection c = twins.a().getConnection()) {
            assertThat(catchError(c, new SqlStatement(unfenced, attack.statement().parameters())))
                    .as("the class is real: MariaDB evaluates the outer condition on bob's row").contains("out of range");
        }
        EngineCheck check = EngineCheck.create(twins.a(), Dialect.MARIADB);
        GuardPolicy policy = HostileFixture.policy(Dialect.MARIADB, FunctionPolicy.standard());
        for (String sql : List.of(ATTACK, SEMI_JOIN)) {
            EngineVerdict v = check.check(accept(sql, Dialect.MARIADB), policy);
            assertThat(v).as("%s: %s", sql, v).isInstanceOf(EngineVerdict.Confirmed.class);
        }
    }

    private static long count(Connection c, SqlStatement s) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(s.sql())) {
            for (int i = 0; i < s.parameters().size(); i++) {
                ps.setObject(i + 1, s.parameters().get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static String catchError(Connection c, SqlStatement s) {
        try {
            count(c, s);
            return "";
        } catch (Exception e) {
            return String.valueOf(e.getMessage());
        }
    }
}
