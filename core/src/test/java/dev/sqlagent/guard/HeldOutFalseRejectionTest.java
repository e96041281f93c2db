package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The guard-side fixes of the false rejections {@link LegitimateHeldOutTest} found, each with the escape it must
 * not open: the construct is accepted where the engine reads it so, still checked inside, and refused where
 * the engine reads it otherwise.
 */
class HeldOutFalseRejectionTest {

    private final SqlGuard guard = SqlGuard.create();

    private GuardVerdict check(String sql, Dialect d) {
        return guard.check(sql, HostileFixture.policy(d, FunctionPolicy.standard()), d);
    }

    private static List<ViolationType> types(GuardVerdict v) {
        assertThat(v).as("verdict for %s", v.sql()).isInstanceOf(GuardVerdict.Rejected.class);
        return ((GuardVerdict.Rejected) v).violations().stream().map(Violation::type).toList();
    }

    /** MySQL/MariaDB {@code a <=> b} (NULL-safe equality), which the parser names CosineSimilarity. */
    @Test
    void nullSafeEqualityIsReadOnMariadbAndItsOperandsAreChecked() {
        GuardVerdict ok = check("SELECT name, city FROM people WHERE NOT (city <=> 'Oslo') ORDER BY id", Dialect.MARIADB);
        assertThat(ok).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(ok.sql()).contains("<=>");
        assertThat(types(check("SELECT name FROM people WHERE ssn <=> 'x'", Dialect.MARIADB)))
                .contains(ViolationType.COLUMN_DENIED);
        assertThat(types(check("SELECT name FROM people WHERE city <=> (SELECT code FROM secrets LIMIT 1)",
                Dialect.MARIADB))).contains(ViolationType.TABLE_NOT_ALLOWED);
        // elsewhere <=> is an extension's operator (pgvector): not analysed
        assertThat(types(check("SELECT name FROM people WHERE city <=> 'Oslo'", Dialect.POSTGRESQL)))
                .contains(ViolationType.UNSUPPORTED_CONSTRUCT);
    }

    /** PostgreSQL's named argument {@code f(n => x)} where n is a keyword, read by the parser as Oracle's form. */
    @Test
    void postgresNamedArgumentIsReadAndItsValueIsChecked() {
        assertThat(check("SELECT name, born + make_interval(years => 40) AS forty FROM people ORDER BY id",
                Dialect.POSTGRESQL)).isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(types(check("SELECT make_interval(years => salary) FROM people", Dialect.POSTGRESQL)))
                .contains(ViolationType.COLUMN_DENIED);
        assertThat(types(check("SELECT make_interval(years => (SELECT n FROM secrets LIMIT 1))", Dialect.POSTGRESQL)))
                .contains(ViolationType.TABLE_NOT_ALLOWED);
        assertThat(check("SELECT make_interval(years => 1)", Dialect.H2)).isNotInstanceOf(GuardVerdict.Accepted.class);
    }
}
