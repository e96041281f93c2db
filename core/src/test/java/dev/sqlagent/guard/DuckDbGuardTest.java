package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The guard on {@link Dialect#DUCKDB}, against a real in-process DuckDB: the DuckDB syntax models write that
 * the guard can resolve is accepted and what it accepts runs on the engine and returns rows; what names a
 * file, a URL, an extension, a setting or the catalog, or what the guard cannot resolve (an arrow that DuckDB
 * may read as JSON extraction, a whole row), is refused with a violation. Lambdas, struct literals,
 * {@code USING SAMPLE} and {@code //}: {@link DuckDbSpellingTest}.
 */
class DuckDbGuardTest {

    private static final SqlGuard GUARD = SqlGuard.create();

    private static final GuardPolicy POLICY = GuardPolicy.builder()
            .allowTables("sales", "customers")
            .tableColumns("sales", List.of("id", "region", "amount", "day", "customer_id"))
            .tableColumns("customers", List.of("id", "name", "email"))
            .denyColumn("customers", "email")
            .allowSelectStar(true)
            .build();

    private static DuckDbMemory db;
    private static Connection duck;

    @BeforeAll
    static void open() throws SQLException {
        db = DuckDbMemory.open("CREATE TABLE customers (id INTEGER, name VARCHAR, email VARCHAR)",
                "INSERT INTO customers VALUES (1, 'Ann', 'ann@x'), (2, 'Bo', 'bo@x')",
                "CREATE TABLE sales (id INTEGER, region VARCHAR, amount DECIMAL(10,2), day DATE, customer_id INTEGER)",
                "INSERT INTO sales VALUES (1, 'north', 10.5, DATE '2024-01-03', 1), (2, 'south', 20, "
                        + "DATE '2024-01-20', 2), (3, 'north', 7, DATE '2024-02-01', 2), (4, 'east', 1, DATE '2024-03-09', 1)");
        duck = db.connection();
    }

    @AfterAll
    static void close() throws SQLException {
        db.close();
    }

    /** Legitimate DuckDB SQL: accepted, and what the guard would run returns rows on DuckDB. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT region, amount::INTEGER AS whole FROM sales",
            "SELECT region, CAST(amount AS DOUBLE) FROM sales WHERE day >= '2024-01-15'::DATE",
            "SELECT * FROM sales QUALIFY row_number() OVER (PARTITION BY region ORDER BY amount DESC) = 1",
            "SELECT * EXCLUDE (day) FROM sales",
            "SELECT * REPLACE (amount * 2 AS amount) FROM sales",
            "SELECT [1, 2, 3] AS l, region FROM sales",
            "SELECT list(region) FROM sales",
            "SELECT region, sum(amount) FROM sales GROUP BY ALL",
            "SELECT region, amount FROM sales ORDER BY ALL",
            "SELECT s FROM sales s",
            "SELECT count(*) FILTER (WHERE amount > 5) FROM sales",
            "SELECT date_trunc('month', day) AS m, sum(amount) FROM sales GROUP BY 1 ORDER BY 1",
            "SELECT strftime(day, '%Y-%m') FROM sales",
            "SELECT year(day), month(day) FROM sales",
            "SELECT region ILIKE 'n%' FROM sales",
            "SELECT arg_max(region, amount), max(amount) FROM sales",
            "SELECT region FROM sales WHERE day BETWEEN DATE '2024-01-01' AND DATE '2024-02-01'",
            "SELECT day + INTERVAL 3 DAY FROM sales",
            "SELECT \"region\" FROM sales",
            "SELECT c.name, sum(s.amount) FROM sales s JOIN customers c ON c.id = s.customer_id GROUP BY c.name",
            "SELECT name FROM customers WHERE id IN (SELECT customer_id FROM sales WHERE amount > 9)",
            "WITH t AS (SELECT region, sum(amount) AS total FROM sales GROUP BY region) SELECT region FROM t "
                    + "WHERE total > 5",
            "SELECT region, string_agg(CAST(id AS VARCHAR), ',') FROM sales GROUP BY region",
            "SELECT date_diff('day', min(day), max(day)) FROM sales",
            "SELECT regexp_matches(region, '^n') FROM sales",
            "SELECT region, round(avg(amount), 2) FROM sales GROUP BY region HAVING count(*) > 1",
            "SELECT region, amount, lag(amount) OVER (ORDER BY day) FROM sales",
            "SELECT region, histogram(amount) FROM sales GROUP BY region",
            "SELECT unnest(string_split(region, 'o')) AS piece FROM sales",
            "SELECT region, count(*) FROM sales GROUP BY ROLLUP (region)",
            "SELECT region, day, count(*) FROM sales GROUP BY CUBE (region, day)",
            "SELECT {'a': region, 'b': amount}.a AS r FROM sales",
            "SELECT (s).region FROM sales s"})
    void legitimateDuckDbSqlIsAcceptedAndRuns(String sql) throws SQLException {
        GuardVerdict v = GUARD.check(sql, POLICY, Dialect.DUCKDB);
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
        String run = ((GuardVerdict.Accepted) v).statement().sql();
        try (Statement s = duck.createStatement(); ResultSet r = s.executeQuery(run)) {
            assertThat(r.next()).as("rows from %s", run).isTrue();
        }
        dev.sqlagent.guard.engine.EngineReading reading = engineCheck().read(duck,
                ((GuardVerdict.Accepted) v).statement());
        assertThat(dev.sqlagent.guard.engine.EngineCheck.disagreements(reading, POLICY, Dialect.DUCKDB))
                .as("the engine's reading of %s: %s", run, reading.describe()).isEmpty();
    }

    private static dev.sqlagent.guard.engine.EngineCheck engineCheck() {
        return dev.sqlagent.guard.engine.EngineCheck.create(db.dataSource(), Dialect.DUCKDB);
    }

    /** The engine's own reading (its parser's tree) names what the guard would have to have missed. */
    @Test
    void theEngineCheckReadsTablesAndFunctionsAndFailsClosedOnTableFunctions() throws SQLException {
        GuardPolicy salesOnly = GuardPolicy.builder().allowTables("sales")
                .tableColumns("sales", List.of("id", "region", "amount", "day", "customer_id")).build();
        java.util.Map<String, String> cases = java.util.Map.of(
                "SELECT name FROM customers", "reads table main.customers",
                "SELECT region FROM sales WHERE id IN (SELECT id FROM main.customers)", "reads table main.customers",
                "SELECT current_setting('threads') FROM sales", "calls function current_setting",
                "SELECT a FROM read_csv('/etc/passwd')", "cannot read the table function",
                "SELECT region FROM sales UNION SELECT getvariable('x')", "calls function getvariable",
                "CREATE TABLE x AS SELECT region FROM sales", "cannot read a statement DuckDB's serializer refuses");
        for (java.util.Map.Entry<String, String> e : cases.entrySet()) {
            dev.sqlagent.guard.engine.EngineReading reading = engineCheck().read(duck,
                    new dev.sqlagent.execution.SqlStatement(e.getKey(), List.of()));
            assertThat(String.join(" | ", dev.sqlagent.guard.engine.EngineCheck.disagreements(reading, salesOnly,
                    Dialect.DUCKDB))).as(e.getKey()).contains(e.getValue());
        }
        dev.sqlagent.guard.engine.EngineReading cte = engineCheck().read(duck, new dev.sqlagent.execution.SqlStatement(
                "WITH customers AS (SELECT region FROM sales) SELECT region FROM customers", List.of()));
        assertThat(dev.sqlagent.guard.engine.EngineCheck.disagreements(cte, salesOnly, Dialect.DUCKDB)).isEmpty();
    }

    /** Files, URLs, extensions, settings, the catalog and other databases: never through the guard. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT * FROM read_csv('/etc/passwd')",
            "SELECT * FROM read_csv_auto('/etc/passwd')",
            "SELECT * FROM read_parquet('s3://bucket/x.parquet')",
            "SELECT * FROM read_json('https://example.org/x.json')",
            "SELECT * FROM read_text('/etc/hostname')",
            "SELECT * FROM read_blob('/etc/hostname')",
            "SELECT * FROM glob('/etc/*')",
            "SELECT * FROM sniff_csv('/etc/passwd')",
            "SELECT * FROM parquet_metadata('x.parquet')",
            "SELECT * FROM '/etc/passwd'",
            "SELECT region FROM 'sales'",
            "SELECT region FROM 'sales.csv'",
            "SELECT content FROM sales, read_text('/etc/hostname')",
            "SELECT region FROM sales WHERE EXISTS (SELECT 1 FROM read_csv('/etc/passwd'))",
            "ATTACH '/tmp/other.duckdb' AS o",
            "ATTACH ':memory:' AS o",
            "DETACH o",
            "INSTALL httpfs",
            "LOAD httpfs",
            "COPY sales TO '/tmp/out.csv'",
            "COPY (SELECT region FROM sales) TO '/tmp/out.parquet' (FORMAT PARQUET)",
            "COPY sales FROM '/etc/passwd'",
            "EXPORT DATABASE '/tmp/dump'",
            "IMPORT DATABASE '/tmp/dump'",
            "SET enable_external_access = true",
            "SET lock_configuration = false",
            "RESET lock_configuration",
            "SET allowed_directories = ['/']",
            "PRAGMA enable_profiling",
            "PRAGMA table_info('sales')",
            "CALL pragma_version()",
            "SELECT current_setting('allowed_directories')",
            "SELECT getvariable('x')",
            "SELECT version()",
            "SELECT * FROM duckdb_settings()",
            "SELECT table_name FROM duckdb_tables()",
            "SELECT name FROM pragma_table_info('customers')",
            "SELECT * FROM query('SELECT email FROM customers')",
            "SELECT * FROM query_table('customers')",
            "SELECT region FROM main.sales",
            "SELECT region FROM memory.main.sales",
            "SELECT region FROM other.main.sales",
            "SELECT table_name FROM information_schema.tables",
            "CREATE TABLE x AS SELECT region FROM sales",
            "CREATE SECRET (TYPE s3, KEY_ID 'k', SECRET 's')",
            "SELECT * FROM range(100000000000)",
            "SELECT region FROM sales, generate_series(1, 1000000000)",
            "SELECT repeat(region, 100000000) FROM sales",
            "SELECT * FROM histogram(customers, email)",
            "SELECT (c).name FROM customers c",
            "SELECT {'e': email}.e FROM customers",
            "SELECT count(*) FROM customers GROUP BY ROLLUP (email)",
            "SELECT unnest(string_split(email, '@')) FROM customers",
            "SELECT unnest(string_split_regex(region, '')) FROM sales",
            "SELECT unnest(list(region)) FROM sales",
            "USE other",
            "CHECKPOINT"})
    void filesExtensionsSettingsAndCatalogAreRefused(String sql) {
        GuardVerdict v = GUARD.check(sql, POLICY, Dialect.DUCKDB);
        assertThat(v).as("%s", v).isNotInstanceOf(GuardVerdict.Accepted.class);
    }

    /** What the guard cannot resolve is refused with a violation that says what it is. */
    @Test
    void unresolvableDuckDbSyntaxIsRefusedWithAClearViolation() {
        List<String> why = new ArrayList<>();
        for (String sql : List.of(
                "SELECT list_transform([1, 2], x -> x + region) FROM sales",
                "SELECT {'a': email} FROM customers",
                "SELECT columns('e.*') FROM customers",
                "SELECT c FROM customers c",
                "SELECT to_json(c) FROM customers c",
                "SELECT * EXCLUDE (id) FROM customers",
                "SELECT rowid, region FROM sales")) {
            GuardVerdict v = GUARD.check(sql, POLICY, Dialect.DUCKDB);
            assertThat(v).as("%s", sql).isInstanceOf(GuardVerdict.Rejected.class);
            why.add(((GuardVerdict.Rejected) v).violations().get(0).type() + ": " + sql);
        }
        assertThat(why).containsExactly(
                "UNSUPPORTED_CONSTRUCT: SELECT list_transform([1, 2], x -> x + region) FROM sales",
                "COLUMN_DENIED: SELECT {'a': email} FROM customers",
                "UNKNOWN_FUNCTION: SELECT columns('e.*') FROM customers",
                "WHOLE_ROW: SELECT c FROM customers c",
                "WHOLE_ROW: SELECT to_json(c) FROM customers c",
                "COLUMN_DENIED: SELECT * EXCLUDE (id) FROM customers",
                "SYSTEM_COLUMN: SELECT rowid, region FROM sales");
    }

    /** A named argument ({@code struct_pack(n := x)}) is walked as its value: what it names is checked. */
    @Test
    void namedArgumentsAreCheckedLikePositionalOnes() {
        assertThat(GUARD.check("SELECT struct_pack(n := name, i := id) AS s FROM customers", POLICY, Dialect.DUCKDB))
                .isInstanceOf(GuardVerdict.Accepted.class);
        for (String sql : List.of("SELECT struct_pack(e := email) AS s FROM customers",
                "SELECT struct_pack(r := c) AS s FROM customers c",
                "SELECT struct_pack(x := (SELECT max(email) FROM customers)) AS s FROM sales",
                "SELECT repeat(string := region, count := 100000000) FROM sales")) {
            assertThat(GUARD.check(sql, POLICY, Dialect.DUCKDB)).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
        }
        GuardPolicy pg = GuardPolicy.builder().allowTables("sales").build();
        assertThat(GUARD.check("SELECT repeat(str => 'x', count => 100000000) AS v", pg, Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Rejected.class);
    }

    /**
     * DuckDB's integer generators in FROM over integer constants, bounded, are accepted and run as written;
     * every other table function, and a generator over anything but constants or past the cap, is refused.
     */
    @Test
    void boundedIntegerGeneratorsAreTheOnlyTableFunctionsInFrom() throws SQLException {
        for (String sql : List.of(
                "SELECT range AS n FROM range(3)",
                "SELECT t.range FROM range(1, 4) t",
                "SELECT n FROM range(10, 0, -3) AS t(n)",
                "SELECT generate_series FROM generate_series(1, 5, 2)",
                "SELECT s.region, g.generate_series FROM sales s JOIN generate_series(1, 2) g ON g.generate_series = s.id",
                "SELECT count(*) FROM range(1000000)",
                "SELECT count(*) FROM range(1000) a JOIN range(1000) b ON a.range = b.range",
                "SELECT range FROM range(-5, -1)")) {
            GuardVerdict v = GUARD.check(sql, POLICY, Dialect.DUCKDB);
            assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
            try (Statement s = duck.createStatement();
                    ResultSet r = s.executeQuery(((GuardVerdict.Accepted) v).statement().sql())) {
                assertThat(r.next()).as(sql).isTrue();
            }
            dev.sqlagent.guard.engine.EngineReading reading = engineCheck().read(duck,
                    ((GuardVerdict.Accepted) v).statement());
            assertThat(dev.sqlagent.guard.engine.EngineCheck.disagreements(reading, POLICY, Dialect.DUCKDB))
                    .as("the engine's reading of %s: %s", sql, reading.describe()).isEmpty();
        }
        // the engine check alone: a generator past the cap, over a column, or with ordinality is unreadable
        for (String sql : List.of("SELECT range FROM range(1000001)", "SELECT range FROM sales, range(sales.id)",
                "SELECT count(*) FROM range(1000) a, range(1001) b",
                "SELECT range FROM range(3) WITH ORDINALITY", "SELECT range FROM range(0.5)",
                "SELECT * FROM unnest([1, 2])")) {
            dev.sqlagent.guard.engine.EngineReading reading = engineCheck().read(duck,
                    new dev.sqlagent.execution.SqlStatement(sql, List.of()));
            assertThat(String.join(" | ", dev.sqlagent.guard.engine.EngineCheck.disagreements(reading, POLICY,
                    Dialect.DUCKDB))).as(sql).containsPattern("cannot read the (table function|generators)");
        }
        for (String sql : List.of(
                "SELECT range FROM range(1000001)",
                "SELECT generate_series FROM generate_series(0, 1000000)",
                "SELECT count(*) FROM range(1000000) a, range(2) b",
                "SELECT count(*) FROM range(1000) a JOIN range(1001) b ON a.range = b.range",
                "SELECT range FROM range(0, 10, 0)",
                "SELECT range FROM range(id)",
                "SELECT range FROM range(1 + 2)",
                "SELECT range FROM range(3.5)",
                "SELECT range FROM range(DATE '2024-01-01', DATE '2025-01-01', INTERVAL 1 DAY)",
                "SELECT range FROM range(3) WITH ORDINALITY",
                "SELECT r.range FROM sales s, LATERAL range(s.id) r",
                "SELECT email FROM range(3)",
                "SELECT * FROM unnest([1, 2])",
                "SELECT * FROM main.range(3)")) {
            assertThat(GUARD.check(sql, POLICY, Dialect.DUCKDB)).as(sql).isNotInstanceOf(GuardVerdict.Accepted.class);
        }
        GuardPolicy pg = GuardPolicy.builder().allowTables("sales").build();
        assertThat(GUARD.check("SELECT * FROM generate_series(1, 3)", pg, Dialect.POSTGRESQL))
                .isInstanceOf(GuardVerdict.Rejected.class);
    }

    /** A list literal unnests to its own elements: bounded; any other unnest is refused as unbounded. */
    @Test
    void unnestIsBoundedOnlyOverAListLiteral() {
        assertThat(GUARD.check("SELECT unnest([1, 2, 3]) AS v", POLICY, Dialect.DUCKDB))
                .isInstanceOf(GuardVerdict.Accepted.class);
        assertThat(GUARD.check("SELECT unnest(list(region)) AS v FROM sales", POLICY, Dialect.DUCKDB))
                .isInstanceOf(GuardVerdict.Rejected.class);
        assertThat(GUARD.check("SELECT unnest([repeat('x', 100000000)]) AS v", POLICY, Dialect.DUCKDB))
                .isInstanceOf(GuardVerdict.Rejected.class);
    }

    @Test
    void rowidIsASystemColumnAHostMayOpen() throws SQLException {
        GuardPolicy open = POLICY.toBuilder().allowSystemColumns("rowid").build();
        GuardVerdict v = GUARD.check("SELECT rowid, region FROM sales", open, Dialect.DUCKDB);
        assertThat(v).as("%s", v).isInstanceOf(GuardVerdict.Accepted.class);
        try (Statement s = duck.createStatement();
             ResultSet r = s.executeQuery(((GuardVerdict.Accepted) v).statement().sql())) {
            assertThat(r.next()).isTrue();
        }
    }

    @Test
    void duckdbIsAnEngineTestedDialect() {
        assertThat(Dialect.parse("duckdb")).isEqualTo(Dialect.DUCKDB);
        assertThat(Dialect.fromProductName("DuckDB")).isEqualTo(Dialect.DUCKDB);
        assertThat(Dialect.DUCKDB.engineTested()).isTrue();
        assertThat(Dialect.SQLSERVER.engineTested()).isFalse();
        assertThat(Dialect.ORACLE.engineTested()).isFalse();
        assertThat(Dialect.GENERIC.engineTested()).isFalse();
    }
}
