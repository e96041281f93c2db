package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import org.junit.jupiter.api.Test;

/** The guard gives a statement it has read under a policy the same verdict again without reading it again. */
class SqlGuardVerdictCacheTest {

    private final SqlGuard guard = SqlGuard.create();

    @Test
    void theSameStatementUnderTheSamePolicyGetsTheVerdictAlreadyGiven() {
        GuardPolicy policy = GuardPolicy.builder().allowTables("orders").build();
        GuardVerdict first = guard.check("SELECT id FROM orders WHERE id = 7", policy, Dialect.H2);
        GuardVerdict again = guard.check("SELECT id FROM orders WHERE id = 7", policy, Dialect.H2);

        assertThat(first).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(again).isSameAs(first);
    }

    @Test
    void anotherPolicyADialectOrAStatementIsReadAfresh() {
        GuardPolicy open = GuardPolicy.builder().allowTables("orders", "users").build();
        GuardPolicy closed = GuardPolicy.builder().allowTables("orders").build();
        String sql = "SELECT u.name FROM users u";

        assertThat(guard.check(sql, open, Dialect.H2)).isInstanceOf(GuardVerdict.Accepted.class);
        // an equal-looking policy is another policy: compared by identity, never by a key that could collide
        assertThat(guard.check(sql, closed, Dialect.H2)).isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(guard.check(sql, open, Dialect.H2)).isInstanceOf(GuardVerdict.Accepted.class);

        // the dialect is part of the key: MariaDB reads || as OR, PostgreSQL as concatenation
        String pipes = "SELECT name || 'x' AS n FROM users";
        String onMariaDb = ((GuardVerdict.Accepted) guard.check(pipes, open, Dialect.MARIADB)).statement().sql();
        String onPostgres = ((GuardVerdict.Accepted) guard.check(pipes, open, Dialect.POSTGRESQL)).statement().sql();
        assertThat(onMariaDb).containsIgnoringCase(" OR ").doesNotContain("||");
        assertThat(onPostgres).contains("||");
        assertThat(((GuardVerdict.Accepted) guard.check(pipes, open, Dialect.MARIADB)).statement().sql())
                .isEqualTo(onMariaDb);
    }

    @Test
    void aRewriteIsKeptWithItsParameters() {
        GuardPolicy policy = GuardPolicy.builder().allowTables("orders").rowFilter("orders", "tenant_id", 42)
                .maxRows(10).build();
        GuardVerdict.Accepted first = (GuardVerdict.Accepted) guard.check("SELECT id FROM orders", policy, Dialect.H2);
        GuardVerdict.Accepted again = (GuardVerdict.Accepted) guard.check("SELECT id FROM orders", policy, Dialect.H2);

        assertThat(again.statement()).isEqualTo(first.statement());
        assertThat(again.statement().parameters()).containsExactly(42);
        assertThat(again.statement().sql()).containsIgnoringCase("tenant_id").containsIgnoringCase("10");
    }
}
