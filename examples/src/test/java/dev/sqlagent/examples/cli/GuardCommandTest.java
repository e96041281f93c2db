package dev.sqlagent.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class GuardCommandTest {

    private static String[] run(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        GuardCommand command = new GuardCommand(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        int code = new CommandLine(command).execute(args);
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        return out.toString(StandardCharsets.UTF_8).split("\n");
    }

    @Test
    void printsOneJsonVerdictPerInputLine() {
        String[] lines = run("SELECT name FROM employees\nSELECT salary FROM employees\nSELECT * FROM salaries\n"
                        + "SELECT name FROM\n",
                "--allow-tables", "employees,departments", "--deny-columns", "employees.salary",
                "--dialect", "postgresql", "--max-rows", "50");
        assertThat(lines).hasSize(4);
        assertThat(lines[0]).isEqualTo("{\"sql\":\"SELECT name FROM employees\",\"verdict\":\"ACCEPTED\","
                + "\"violations\":[],\"rewritten_sql\":\"SELECT name FROM employees LIMIT 50\",\"parameters\":[],"
                + "\"tables\":[\"employees\"],\"engine_tested\":true}");
        assertThat(lines[1]).contains("\"verdict\":\"REJECTED\"", "\"type\":\"COLUMN_DENIED\"",
                "\"rewritten_sql\":null");
        assertThat(lines[2]).contains("\"verdict\":\"REJECTED\"", "SELECT_STAR", "TABLE_NOT_ALLOWED");
        assertThat(lines[3]).contains("\"verdict\":\"UNPARSEABLE\"");
    }

    @Test
    void rowFiltersBindTheirValueANumberAsANumberAndQuotedTextAsText() {
        String[] lines = run("SELECT amount FROM orders\nSELECT name FROM customers\n", "--allow-tables", "orders,customers",
                "--row-filter", "orders.tenant_id=42", "--row-filter", "customers.region='7'", "--dialect", "postgresql");
        assertThat(lines[0]).contains("\"verdict\":\"ACCEPTED\"", "tenant_id = ?", "\"parameters\":[\"42\"]");
        assertThat(lines[1]).contains("region = ?", "\"parameters\":[\"7\"]");
        assertThat(PolicyOptions.value("42")).isEqualTo(42L);
        assertThat(PolicyOptions.value("'42'")).isEqualTo("42");
        assertThat(PolicyOptions.value("north")).isEqualTo("north");
    }

    @Test
    void withSqliteItAllowsThatDatabasesTables() {
        Path db = Path.of(System.getProperty("sqlagent.projectRoot", ".."))
                .resolve("../shared/data/spider-dev/sqlite/concert_singer.sqlite").normalize();
        String[] lines = run("SELECT * FROM singer\nSELECT name FROM sqlite_master\n",
                "--sqlite", db.toString(), "--allow-select-star");
        assertThat(lines[0]).contains("\"verdict\":\"ACCEPTED\"", "SELECT * FROM singer LIMIT 1000");
        assertThat(lines[1]).contains("\"verdict\":\"REJECTED\"", "TABLE_NOT_ALLOWED");
    }

    @Test
    void functionListsComeFromFlags() {
        String sql = "SELECT current_user FROM employees\nSELECT TIME_TO_SEC(x) FROM employees\nSELECT upper(x) FROM employees\n";
        String[] standard = run(sql, "--allow-tables", "employees", "--dialect", "mysql");
        assertThat(standard[0]).contains("\"verdict\":\"REJECTED\"", "FUNCTION_NOT_ALLOWED");
        assertThat(standard[1]).contains("\"verdict\":\"ACCEPTED\"");
        String[] allowing = run(sql, "--allow-tables", "employees", "--dialect", "mysql",
                "--allow-unsafe-functions", "READS_SESSION=current_user");
        assertThat(allowing[0]).contains("\"verdict\":\"ACCEPTED\"");
        String[] only = run(sql, "--allow-tables", "employees", "--dialect", "mysql", "--only-functions", "upper");
        assertThat(only[1]).contains("\"verdict\":\"REJECTED\"");
        assertThat(only[2]).contains("\"verdict\":\"ACCEPTED\"");
        String[] denying = run(sql, "--allow-tables", "employees", "--dialect", "mysql", "--deny-functions", "upper");
        assertThat(denying[1]).contains("\"verdict\":\"ACCEPTED\"");
        assertThat(denying[2]).contains("\"verdict\":\"REJECTED\"");
    }

    @Test
    void experimentalDialectsSayTheirVerdictIsNotEngineTested() {
        for (String d : new String[] {"sqlserver", "oracle", "generic"}) {
            String[] lines = run("SELECT name FROM employees\n", "--allow-tables", "employees", "--dialect", d);
            assertThat(lines[0]).as(d).endsWith("\"engine_tested\":false}");
        }
        String[] duck = run("SELECT name FROM employees\nSELECT * FROM read_csv('/etc/passwd')\n",
                "--allow-tables", "employees", "--dialect", "duckdb");
        assertThat(duck[0]).contains("\"verdict\":\"ACCEPTED\"").endsWith("\"engine_tested\":true}");
        assertThat(duck[1]).contains("\"verdict\":\"REJECTED\"");
    }
}
