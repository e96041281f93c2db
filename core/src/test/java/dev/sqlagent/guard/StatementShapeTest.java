package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The guard's shape check: a statement that is not one query is a policy violation of its own type, read
 * from the tokens before any parse, so that what the parser cannot read (COPY, ATTACH, INSTALL, PRAGMA, …)
 * is refused instead of reported as a syntax error to be corrected; and quoted names in other scripts are
 * accepted while look-alike ones are not.
 */
class StatementShapeTest {

    private static final SqlGuard GUARD = SqlGuard.create();
    private static final GuardPolicy POLICY = GuardPolicy.builder().allowTables("sales", "emp")
            .tableColumns("sales", List.of("region", "amount")).tableColumns("emp", List.of("id", "name", "salary"))
            .denyColumn("emp", "salary").knownTables(List.of("sales", "emp", "secret")).build();

    private static List<ViolationType> refusal(String sql, Dialect dialect) {
        GuardVerdict v = GUARD.check(sql, POLICY, dialect);
        assertThat(v).as("%s on %s", sql, dialect).isInstanceOf(GuardVerdict.Rejected.class);
        return ((GuardVerdict.Rejected) v).violations().stream().map(Violation::type).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "COPY (SELECT region FROM sales) TO 'out.csv'",
        "COPY sales TO 'out.csv'",
        "INSTALL httpfs",
        "FORCE INSTALL httpfs",
        "LOAD httpfs",
        "PRAGMA enable_profiling",
        "PRAGMA table_info('sales')",
        "SET threads = 1",
        "RESET threads",
        "USE memory",
        "CALL pragma_version()",
        "EXPORT DATABASE 'dump'",
        "IMPORT DATABASE 'dump'",
        "VACUUM",
        "DETACH o",
        "CHECKPOINT",
        "SUMMARIZE sales",
        "DELETE FROM sales WHERE region IN (SELECT region FROM sales)",
        "CREATE TABLE t AS SELECT region FROM sales",
        "(COPY (SELECT 1) TO 'x')",
    })
    void aStatementThatIsNotAQueryIsNotAQuery(String sql) {
        for (Dialect d : new Dialect[] {Dialect.DUCKDB, Dialect.POSTGRESQL, Dialect.H2, Dialect.SQLITE, Dialect.MARIADB}) {
            assertThat(refusal(sql, d)).as("%s on %s", sql, d).containsExactly(ViolationType.NOT_A_QUERY);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "ATTACH 'other.db' AS o; SELECT region FROM sales",
        "INSTALL httpfs; SELECT region FROM sales",
        "PRAGMA enable_profiling; SELECT region FROM sales",
        "SELECT region FROM sales; COPY sales TO 'x.csv'",
    })
    void aStatementBesideAQueryIsBothSeveralStatementsAndNotAQuery(String sql) {
        assertThat(refusal(sql, Dialect.DUCKDB)).containsExactly(ViolationType.MULTIPLE_STATEMENTS,
                ViolationType.NOT_A_QUERY);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT secret FROM 'data/secret.csv'",
        "SELECT region FROM sales, 'data/secret.csv'",
        "SELECT s.region FROM sales s JOIN 'https://example.com/x.parquet' x ON x.region = s.region",
        "SELECT region FROM ('data/secret.csv')",
        "SELECT region FROM sales WHERE region IN (SELECT region FROM 's3://bucket/x.parquet')",
    })
    void aFileOrUrlReadAsATableIsRefused(String sql) {
        assertThat(refusal(sql, Dialect.DUCKDB)).contains(ViolationType.TABLE_FUNCTION);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT EXTRACT(YEAR FROM DATE '2020-01-01') AS y, trim(BOTH 'x' FROM region) AS r FROM sales",
        "SELECT region FROM sales WHERE region IN ('north', 'south')",
        "SELECT 'a' AS a, region FROM sales",
        "SELECT substring(region FROM 2) AS s FROM sales",
        "(SELECT region FROM sales) UNION (SELECT region FROM sales)",
        "WITH s AS (SELECT region FROM sales) SELECT region FROM s",
        "SELECT region FROM sales;",
        "SELECT region FROM sales WHERE region IS DISTINCT FROM 'north'",
        "SELECT region FROM sales WHERE region IS NOT DISTINCT FROM 'north' ORDER BY region",
    })
    void queriesWithStringsNearFromAreAccepted(String sql) {
        assertThat(GUARD.check(sql, POLICY, Dialect.POSTGRESQL)).as(sql).isInstanceOf(GuardVerdict.Accepted.class);
    }

    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"POSTGRESQL", "DUCKDB", "H2", "SQLITE"})
    void aQuotedNameInAnotherScriptIsAccepted(Dialect d) {
        for (String alias : List.of("名前", "売上_2024", "이름", "Имя", "région", "Ärger", "नाम")) {
            assertThat(GUARD.check("SELECT name AS \"" + alias + "\" FROM emp", POLICY, d)).as("%s on %s", alias, d)
                    .isInstanceOf(GuardVerdict.Accepted.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "раssword",      // Cyrillic р and а mixed with Latin
        "ｎａｍｅ",       // full-width Latin
        "a\u200Db",      // zero-width joiner
        "a\u202Eb",      // right-to-left override
        "a\u00A0b",      // no-break space
        "ﬁle",           // a ligature
        "a\uE000",       // private use
        "名前\u200B",     // zero-width space after CJK
    })
    void aLookAlikeOrInvisibleCharacterInAQuotedNameIsStillRefused(String alias) {
        assertThat(refusal("SELECT name AS \"" + alias + "\" FROM emp", Dialect.POSTGRESQL))
                .containsExactly(ViolationType.SUSPICIOUS_CHARACTER);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT 名前 FROM emp", "SELECT name AS 名前 FROM emp"})
    void anUnquotedNonAsciiNameIsStillRefused(String sql) {
        assertThat(refusal(sql, Dialect.POSTGRESQL)).containsExactly(ViolationType.SUSPICIOUS_CHARACTER);
    }

    /** A name refused as a probe is not also an unknown column: only the real violations are listed. */
    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"POSTGRESQL", "DUCKDB", "H2"})
    void aProbeIsNotAlsoReportedAsAnUnknownColumn(Dialect d) {
        assertThat(refusal("SELECT current_user, salary FROM emp", d))
                .containsExactly(ViolationType.FUNCTION_NOT_ALLOWED, ViolationType.COLUMN_DENIED);
        assertThat(refusal("WITH d AS (SELECT id FROM emp) SELECT d.id FROM d JOIN secret s ON s.id = d.id", d))
                .containsExactly(ViolationType.TABLE_NOT_ALLOWED);
        // one star, seen from the CTE and from the query over it, is one violation
        assertThat(refusal("WITH d AS (SELECT * FROM secret) SELECT * FROM d", d))
                .containsExactly(ViolationType.TABLE_NOT_ALLOWED, ViolationType.SELECT_STAR);
    }
}
