package dev.sqlagent.host;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * Runs the library as a modular application would, and prints one {@code key: value} line per fact.
 *
 * <p>It checks that it runs on the module path (no class path, the library and the drivers in named
 * modules, the library's internals not exported), asks the agent a question about the company database
 * in H2 (ANSWERED with rows), asks one whose SQL reads a forbidden table (REJECTED), has the guard check
 * that SQL directly (rejected), and asks a question about a SQLite database reached through a JDBC URL,
 * so through {@link DriverManager} and the driver bound as a service. The last line is {@code result: ok}
 * and the exit status 0 when every fact is as expected; otherwise each wrong fact is printed as
 * {@code problem: ...} and the exit status is 1.
 */
public final class Main {

    private static final String REFINER = "refiner";

    private final List<String> problems = new ArrayList<>();

    private Main() {
    }

    /**
     * Runs the checks.
     *
     * @param args none
     * @throws Exception when a database cannot be set up
     */
    public static void main(String[] args) throws Exception {
        Main main = new Main();
        main.run();
        if (main.problems.isEmpty()) {
            System.out.println("result: ok");
        } else {
            main.problems.forEach(p -> System.out.println("problem: " + p));
            System.out.println("result: failed");
            System.exit(1);
        }
    }

    private void run() throws SQLException, IOException {
        modules();
        companyDatabase();
        sqliteThroughDriverManager();
    }

    private void modules() {
        String classPath = System.getProperty("java.class.path", "");
        System.out.println("class path: " + (classPath.isEmpty() ? "(empty)" : classPath));
        expect(classPath.isEmpty(), "the class path is not empty: " + classPath);

        Module core = SqlAgent.class.getModule();
        System.out.println("module of SqlAgent: " + describe(core));
        expect(core.isNamed() && core.getName().equals("dev.sqlagent.core"),
                "SqlAgent is not in the named module dev.sqlagent.core but in " + describe(core));
        moduleOf(LlmClient.class, "dev.sqlagent.spi.llm");
        moduleOf(ScriptedLlm.class, "dev.sqlagent.test");
        moduleOf(Main.class, "dev.sqlagent.host");
        moduleOf(driver("org.h2.Driver"), "com.h2database");
        moduleOf(driver("org.sqlite.JDBC"), "org.xerial.sqlitejdbc");
        moduleOf(LoggerFactory.getILoggerFactory().getClass(), "org.slf4j.simple");

        boolean internal = core.isExported("dev.sqlagent.internal", Main.class.getModule());
        System.out.println("dev.sqlagent.internal exported to the host: " + internal);
        expect(!internal, "dev.sqlagent.internal is exported to the host");
        System.out.println("dev.sqlagent.guard exported: " + core.isExported("dev.sqlagent.guard"));
        expect(core.isExported("dev.sqlagent.guard"), "dev.sqlagent.guard is not exported");
    }

    private void companyDatabase() {
        CompanyDatabase db = CompanyDatabase.create();
        GuardPolicy policy = GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES);

        ScriptedLlm llm = ScriptedLlm.create()
                .enqueueFor(REFINER, "SELECT dept_name FROM departments ORDER BY dept_name");
        try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst()).policy(policy).build()) {
            AgentResult r = agent.ask("Which departments are there?");
            int rows = r instanceof AgentResult.Answered a ? a.table().rowCount() : -1;
            System.out.println("h2 question: " + r.status() + " with " + rows + " rows");
            expect(r.status() == AgentResult.Status.ANSWERED && rows > 0,
                    "the H2 question ended " + r.status() + " (" + detail(r) + ")");
        }

        String forbidden = "SELECT employee_id, base_salary FROM salary_detail";
        ScriptedLlm sneaky = ScriptedLlm.create().enqueueFor(REFINER, forbidden);
        try (SqlAgent agent = SqlAgent.builder().llm(sneaky).dataSource(db.analyst()).policy(policy).build()) {
            AgentResult r = agent.ask("What does each employee earn?");
            System.out.println("forbidden question: " + r.status());
            expect(r.status() == AgentResult.Status.REJECTED,
                    "the forbidden question ended " + r.status() + " (" + detail(r) + ")");
        }

        GuardVerdict verdict = SqlGuard.create().check(forbidden, policy, Dialect.H2);
        System.out.println("guard on forbidden SQL: " + verdict.getClass().getSimpleName());
        expect(verdict instanceof GuardVerdict.Rejected, "the guard did not reject " + forbidden + ": " + verdict);
    }

    private void sqliteThroughDriverManager() throws SQLException, IOException {
        Path dir = Files.createTempDirectory("sqlagent-modular-host");
        Path file = dir.resolve("shop.db");
        String url = "jdbc:sqlite:" + file;
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE products (name TEXT NOT NULL, price REAL NOT NULL)");
            s.execute("INSERT INTO products VALUES ('pen', 1.5), ('book', 12.0), ('lamp', 30.0)");
        }
        try {
            ScriptedLlm llm = ScriptedLlm.create()
                    .enqueueFor(REFINER, "SELECT name FROM products WHERE price > 10 ORDER BY name");
            try (SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(new UrlDataSource(url, null, null))
                    .policy(GuardPolicy.allowingTables("products")).build()) {
                AgentResult r = agent.ask("Which products cost more than 10?");
                int rows = r instanceof AgentResult.Answered a ? a.table().rowCount() : -1;
                System.out.println("sqlite question: " + r.status() + " with " + rows + " rows"
                        + " (dialect " + agent.dialect() + ")");
                expect(r.status() == AgentResult.Status.ANSWERED && rows == 2,
                        "the SQLite question ended " + r.status() + " with " + rows + " rows (" + detail(r) + ")");
            }
        } finally {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    private void moduleOf(Class<?> type, String expected) {
        Module m = type.getModule();
        System.out.println("module of " + type.getName() + ": " + describe(m));
        expect(m.isNamed() && m.getName().equals(expected),
                type.getName() + " is not in the named module " + expected + " but in " + describe(m));
    }

    private static Class<?> driver(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("driver " + name + " is not on the module path", e);
        }
    }

    private static String describe(Module m) {
        return m.isNamed() ? m.getName() : "the unnamed module";
    }

    private static String detail(AgentResult r) {
        if (r instanceof AgentResult.Failed f) {
            return f.kind() + ": " + f.message();
        }
        if (r instanceof AgentResult.Rejected rej) {
            return rej.violations().toString();
        }
        return r.sql().orElse("no SQL");
    }

    private void expect(boolean condition, String problem) {
        if (!condition) {
            problems.add(problem);
        }
    }
}
