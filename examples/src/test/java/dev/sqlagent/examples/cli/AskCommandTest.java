package dev.sqlagent.examples.cli;

import static dev.sqlagent.examples.cli.AskRunner.ask;
import static dev.sqlagent.examples.cli.AskRunner.fields;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.examples.cli.AskRunner.Run;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ask} on in-process H2 and SQLite with a fake OpenAI-compatible model over HTTP. */
class AskCommandTest {

    private static final String ORDERS_2023 = "How many orders were placed in 2023?";
    private static final String CITIES = "What cities do customers live in?";

    /** What ask says on stderr when the shop's login can read a table the policy does not allow. */
    private static final String WIDER_LOGIN = "ask: warning: the login can read what the policy forbids"
            + " (public.salaries); the guard is the only line of defence for it. A login that cannot: see the audit"
            + " command.";

    private static FakeModel model;
    private static String h2;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        model = new FakeModel(AskRunner::shop);
        h2 = ShopDatabase.h2();
    }

    @AfterAll
    static void stop() throws Exception {
        model.close();
    }

    private static Run h2(String stdin, String... args) {
        return ask(model, stdin, Map.of(), prepend(args, "--jdbc-url", h2, "--allow-tables", "customers,orders"));
    }

    private static String[] prepend(String[] args, String... first) {
        String[] all = new String[first.length + args.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(args, 0, all, first.length, args.length);
        return all;
    }

    @Test
    void oneQuestionPrintsTheTableThenTheSqlAndExitsZero() {
        int before = model.calls("refiner").size();
        Run r = h2("", CITIES);

        assertThat(r.code()).as(r.toString()).isZero();
        // H2 folds unquoted names to upper case; the values line up, 李雷 taking four columns
        assertThat(r.outLines()).containsExactly(
                " NAME | CITY",
                "------+------",
                " Ann  | Oslo",
                " Bo   | Lund",
                " 李雷 | 北京",
                "(3 rows)",
                "SQL: SELECT name, city FROM customers ORDER BY id",
                "ran: SELECT name, city FROM customers ORDER BY id LIMIT 1000");
        // the shop's login (H2's admin) can read salaries, which the policy does not allow
        assertThat(r.err().strip()).isEqualTo(WIDER_LOGIN);
        List<FakeModel.Call> asked = model.calls("refiner");
        assertThat(asked).hasSize(before + 1);
        FakeModel.Call call = asked.get(asked.size() - 1);
        assertThat(call.user()).contains(CITIES);
        assertThat(call.model()).isEqualTo("fake-sql");
        assertThat(call.authorization()).as("no --api-key-env: no key is sent").isNull();
        assertThat(call.system()).contains("H2", "CREATE TABLE CUSTOMERS", "CREATE TABLE ORDERS").doesNotContain("SALARIES");
    }

    @Test
    void theApiKeyComesFromTheVariableApiKeyEnvNames() {
        Run r = ask(model, "", Map.of("MY_KEY", "sk-test-123"), "--jdbc-url", h2, "--allow-tables", "customers",
                "--api-key-env", "MY_KEY", CITIES);

        assertThat(r.code()).as(r.toString()).isZero();
        List<FakeModel.Call> calls = model.calls("refiner");
        assertThat(calls.get(calls.size() - 1).authorization()).isEqualTo("Bearer sk-test-123");
    }

    @Test
    void jsonHasEveryFieldDemoJsonHasForTheSameStatusAndTheRowsThemselves(@TempDir Path tmp) throws Exception {
        String sqlite = ShopDatabase.sqlite(tmp);
        Run answered = ask(model, "", Map.of(), "--jdbc-url", sqlite, "--allow-tables", "customers,orders", "--json",
                CITIES);
        Run rejected = ask(model, "", Map.of(), "--jdbc-url", sqlite, "--allow-tables", "customers,orders", "--json",
                "What are the salaries?");

        assertThat(answered.code()).as(answered.toString()).isZero();
        assertThat(rejected.code()).as(rejected.toString()).isEqualTo(AskCommand.REJECTED);
        assertThat(answered.outLines()).hasSize(1);
        assertThat(rejected.outLines()).hasSize(1);
        Map<String, Set<String>> demo = demoFieldsByStatus();
        assertThat(fields(answered.out().strip())).containsAll(demo.get("ANSWERED"));
        assertThat(fields(rejected.out().strip())).containsAll(demo.get("REJECTED"));
        assertThat(answered.out().strip()).startsWith("{\"question\":\"" + CITIES + "\",\"status\":\"ANSWERED\","
                        + "\"corrections\":0,\"llm_calls\":1,\"sql\":\"SELECT name, city FROM customers ORDER BY id\","
                        + "\"error_category\":null,\"rows\":3,")
                .contains("\"asked\":\"" + CITIES + "\"", "\"columns\":[\"name\",\"city\"]",
                        "\"data\":[[\"Ann\",\"Oslo\"],[\"Bo\",\"Lund\"],[\"李雷\",\"北京\"]]", "\"truncated\":false",
                        "\"stages\":[\"RECEIVED\",\"GENERATE\",\"GUARD\",\"EXECUTE\"");
        assertThat(rejected.out()).contains("\"status\":\"REJECTED\"", "\"violations\":[\"TABLE_NOT_ALLOWED:salaries\"]");
    }

    /** The top-level fields demo --json writes for each status, less its own scenario and as_expected. */
    private static Map<String, Set<String>> demoFieldsByStatus() {
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            assertThat(SqlAgentCli.run("demo", "--json")).isZero();
        } finally {
            System.setOut(saved);
        }
        Map<String, Set<String>> byStatus = new java.util.HashMap<>();
        for (String line : buf.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            Set<String> f = new HashSet<>(fields(line));
            f.removeAll(Set.of("scenario", "as_expected"));
            String status = line.replaceAll(".*\"status\":\"([A-Z]+)\".*", "$1");
            byStatus.computeIfAbsent(status, s -> new HashSet<>()).addAll(f);
        }
        assertThat(byStatus.get("ANSWERED")).contains("question", "status", "corrections", "llm_calls", "sql",
                "error_category", "rows", "tokens");
        assertThat(byStatus.get("REJECTED")).contains("violations", "hand_off");
        return byStatus;
    }

    @Test
    void traceShowsTheModelCallTheGuardAndTheExecutionBeforeTheTable(@TempDir Path tmp) throws Exception {
        String sqlite = ShopDatabase.sqlite(tmp);
        Run r = ask(model, "", Map.of(), "--jdbc-url", sqlite, "--allow-tables", "customers,orders", "--trace",
                ORDERS_2023);

        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("== " + ORDERS_2023, "GENERATE  refiner replied (110 tokens): SELECT COUNT(*)",
                "GUARD     ACCEPTED, runs: SELECT COUNT(*) AS order_count FROM orders",
                "EXECUTE   ok, 1 row(s)", "stages: [RECEIVED, GENERATE, GUARD, EXECUTE",
                " order_count\n-------------\n           3\n(1 row)\n");
        assertThat(r.out().indexOf("EXECUTE   ok")).isLessThan(r.out().indexOf("\n order_count\n"));
    }

    @Test
    void aForbiddenTableIsRejectedWithExitThreeAndNothingRuns() {
        Run r = h2("", "What are the salaries?");

        assertThat(r.code()).as(r.toString()).isEqualTo(3);
        assertThat(r.out()).contains("REJECTED by the guard policy; nothing ran:", "TABLE_NOT_ALLOWED [salaries]",
                "SQL: SELECT customer_id, salary FROM salaries");
    }

    @Test
    void aReplyWithoutSqlFailsWithExitFour() {
        Run r = h2("", "Write me a poem");

        assertThat(r.code()).as(r.toString()).isEqualTo(4);
        assertThat(r.out()).startsWith("FAILED (NO_SQL)");
    }

    @Test
    void usageErrorsExitTwoWithOneClearLine() {
        Run noTables = ask(model, "", Map.of(), "--jdbc-url", h2, CITIES);
        assertThat(noTables.code()).isEqualTo(2);
        assertThat(noTables.err().strip()).isEqualTo("ask: name the tables the model may read with --allow-tables a,b"
                + " (or allow every table and view of the login's current schema with --all-tables)");

        Run both = h2("", "--all-tables", CITIES);
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("--allow-tables or --all-tables, not both");

        Run unknown = h2("", "--allow-table", "x", CITIES);
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("Unknown option: '--allow-table'", "Possible solutions: --all-tables, --allow-tables");

        Run noUrl = ask(model, "", Map.of(), "--allow-tables", "orders", CITIES);
        assertThat(noUrl.code()).isEqualTo(2);
        assertThat(noUrl.err().strip()).isEqualTo("ask: give the database: --jdbc-url URL, --csv NAME=FILE, --parquet"
                + " NAME=FILE or --duckdb FILE");

        Run badColumn = h2("", "--deny-columns", "salary", CITIES);
        assertThat(badColumn.code()).isEqualTo(2);
        assertThat(badColumn.err().strip()).isEqualTo("ask: --deny-columns expects table.column but was 'salary'");

        Run noPassword = h2("", "--password-env", "NO_SUCH_VARIABLE", CITIES);
        assertThat(noPassword.code()).isEqualTo(2);
        assertThat(noPassword.err().strip()).isEqualTo("ask: environment variable NO_SUCH_VARIABLE (--password-env) is"
                + " not set");

        Run noModel = AskRunner.run("", Map.of(), "ask", "--base-url", model.baseUrl(), "--jdbc-url", h2,
                "--allow-tables", "orders", CITIES);
        assertThat(noModel.code()).isEqualTo(2);
        assertThat(noModel.err().strip()).isEqualTo("ask: --model is required with --base-url or --api-key-env");

        Run badUrl = ask(model, "", Map.of(), "--jdbc-url", "jdbc:nosuchdb://h/db?password=secret",
                "--allow-tables", "orders", CITIES);
        assertThat(badUrl.code()).isEqualTo(2);
        assertThat(badUrl.err().strip()).isEqualTo("ask: no driver for jdbc:nosuchdb://h/db: the jar has H2 (jdbc:h2:),"
                + " SQLite (jdbc:sqlite:), PostgreSQL (jdbc:postgresql:), MariaDB/MySQL (jdbc:mariadb:) and Trino (jdbc:trino:)");

        Run notJdbc = ask(model, "", Map.of(), "--jdbc-url", "postgres://h/db", "--allow-tables", "orders", CITIES);
        assertThat(notJdbc.code()).isEqualTo(2);
        assertThat(notJdbc.err()).contains("--jdbc-url must start with jdbc:");

        for (Run r : List.of(noTables, both, badColumn, noPassword, noModel, badUrl, notJdbc)) {
            assertThat(r.out()).isEmpty();
            assertThat(r.err()).doesNotContain("\tat ");
        }
    }

    @Test
    void anUnreachableDatabaseExitsFiveWithOneLineAndNoStackTrace() {
        Run pg = ask(model, "", Map.of("PW", "secret"), "--jdbc-url",
                "jdbc:postgresql://127.0.0.1:1/shop?ssl=false", "--user", "u", "--password-env", "PW",
                "--allow-tables", "orders", CITIES);
        assertThat(pg.code()).as(pg.toString()).isEqualTo(5);
        // the cause (nothing listens there) and the next step, from the driver's cause chain
        assertThat(pg.err()).startsWith("ask: cannot connect to jdbc:postgresql://127.0.0.1:1/shop: nothing answers "
                + "there (Connection refused); is the database server running").doesNotContain("\tat ", "secret", "ssl");
        assertThat(pg.err().strip()).doesNotContain("\n");

        Run noFile = ask(model, "", Map.of(), "--jdbc-url", "jdbc:sqlite:" + dir.resolve("typo.sqlite"),
                "--allow-tables", "orders", CITIES);
        assertThat(noFile.code()).isEqualTo(5);
        assertThat(noFile.err().strip()).startsWith("ask: cannot read " + dir.resolve("typo.sqlite")
                + " (the SQLite file of --jdbc-url): no such file");
        assertThat(dir.resolve("typo.sqlite")).as("not created").doesNotExist();

        Path h2File = dir.resolve("typo-h2");
        Run noH2 = ask(model, "", Map.of(), "--jdbc-url", "jdbc:h2:" + h2File, "--allow-tables", "orders", CITIES);
        assertThat(noH2.code()).as(noH2.toString()).isEqualTo(5);
        assertThat(noH2.err()).startsWith("ask: cannot connect to jdbc:h2:" + h2File + ": Database \"" + h2File)
                .contains("not found");
        assertThat(dir.resolve("typo-h2.mv.db")).as("not created").doesNotExist();

        Run debug = ask(model, "", Map.of(), "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/shop",
                "--allow-tables", "orders", "--debug", CITIES);
        assertThat(debug.code()).isEqualTo(5);
        assertThat(debug.err()).contains("\tat ");
    }

    @Test
    void allTablesAllowsTheSchemasTablesAndSaysSoLoudly() {
        Run r = ask(model, "", Map.of(), "--jdbc-url", h2, "--all-tables", "What are the salaries?");

        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.err()).startsWith("ask: --all-tables: the policy allows every table and view of the current"
                + " schema that the login can read (3): CUSTOMERS, ORDERS, SALARIES.");
        assertThat(r.out()).contains("7000.00", "(3 rows)");
    }

    @Test
    void allTablesOffersOnlyTheTablesTheLoginCanRead() throws Exception {
        String url = "jdbc:h2:mem:ask_reader";
        try (Connection c = DriverManager.getConnection(url + ";DB_CLOSE_DELAY=-1", "sa", "");
                Statement s = c.createStatement()) {
            ShopDatabase.fill(c);
            s.execute("CREATE USER IF NOT EXISTS reader PASSWORD 'pw'");
            s.execute("GRANT SELECT ON customers, orders TO reader");
        }
        Run r = ask(model, "", Map.of("READER_PW", "pw"), "--jdbc-url", url, "--user", "reader", "--password-env",
                "READER_PW", "--all-tables", CITIES);

        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.err()).contains("ask: --all-tables: left out 1 table(s) the login cannot read: SALARIES",
                "the login can read (2): CUSTOMERS, ORDERS.").doesNotContain("warning");
        assertThat(model.calls("refiner").get(model.calls("refiner").size() - 1).system() + model.calls("refiner")
                .get(model.calls("refiner").size() - 1).user()).containsIgnoringCase("customers")
                .doesNotContainIgnoringCase("salaries");
    }

    @Test
    void theTextOutputPrintsALongSqlWhole() {
        Run r = h2("", "Show every order with its customer");

        assertThat(AskRunner.LONG_SQL).hasSizeGreaterThan(220);
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.outLines()).contains("SQL: " + AskRunner.LONG_SQL);
    }

    /** A misspelt table or denial would leave the real one open: ask stops before any question, naming both. */
    @Test
    void aPolicyNameTheDatabaseLacksStopsAskWithExitTwo() {
        Run table = h2("", "--allow-tables", "ordrs", CITIES);
        assertThat(table.code()).as(table.toString()).isEqualTo(2);
        assertThat(table.err()).contains("allowed table ordrs (nearest: ORDERS)").doesNotContain("\tat ");

        Run denial = h2("", "--deny-columns", "customers.ctiy", CITIES);
        assertThat(denial.code()).as(denial.toString()).isEqualTo(2);
        assertThat(denial.err()).contains("denied column customers.ctiy (nearest: CITY)");
        assertThat(denial.out()).isEmpty();

        Run right = h2("", "--deny-columns", "customers.city", CITIES);
        assertThat(right.code()).as(right.toString()).isNotEqualTo(2);
    }

    @Test
    void withoutAQuestionItConversesAndAFollowUpIsRewrittenFromTheEarlierTurn() {
        int refiner = model.calls("refiner").size();
        int rewriter = model.calls("rewriter").size();
        Run r = h2(ORDERS_2023 + "\n\n  and last year?  \nquit\n" + CITIES + "\n");

        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.err().strip()).as("no banner or prompt on a pipe").isEqualTo(WIDER_LOGIN);
        List<FakeModel.Call> rewrites = model.calls("rewriter").subList(rewriter, model.calls("rewriter").size());
        assertThat(rewrites).hasSize(1);
        assertThat(rewrites.get(0).user()).isEqualTo("Follow-up: and last year?");
        assertThat(rewrites.get(0).system()).contains(ORDERS_2023, "order_date >= '2023-01-01'");
        List<FakeModel.Call> sqls = model.calls("refiner").subList(refiner, model.calls("refiner").size());
        assertThat(sqls).extracting(c -> c.user().lines().findFirst().orElse(""))
                .as("the model writes SQL for the rewritten question; nothing after quit is asked")
                .containsExactly("Question: " + ORDERS_2023, "Question: How many orders were placed in 2022?");
        assertThat(r.out()).contains("(understood as: How many orders were placed in 2022?)");
        String first = r.out().substring(0, r.out().indexOf("(understood as"));
        String second = r.out().substring(r.out().indexOf("(understood as"));
        assertThat(first).contains("           3", "'2023-01-01'").doesNotContain("2022");
        assertThat(second).contains("           2", ">= '2022-01-01'").doesNotContain(">= '2023");
    }

    @Test
    void theConversationEndsAtEndOfInputWithOneJsonLinePerQuestion() {
        Run r = h2(CITIES + "\n" + ORDERS_2023, "--json");

        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.outLines()).hasSize(2);
        assertThat(r.outLines().get(0)).contains("\"asked\":\"" + CITIES + "\"", "\"rows\":3");
        assertThat(r.outLines().get(1)).contains("\"asked\":\"" + ORDERS_2023 + "\"", "\"data\":[[3]]",
                "\"stages\":[\"RECEIVED\",\"REWRITE\",");
    }

    @Test
    void anEmptyInputEndsTheConversationAtOnce() {
        int before = model.calls().size();
        Run r = h2("");

        assertThat(r.code()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(model.calls()).hasSize(before);
    }

    @Test
    void onATerminalJlineTakesAQuestionAsTypedAndCtrlDEndsIt() throws Exception {
        String typed = "what's the top \"customer\"!? \\o/\nand last year?\n";
        ByteArrayOutputStream screen = new ByteArrayOutputStream();
        try (Terminal t = TerminalBuilder.builder().streams(new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8)),
                screen).type("dumb").encoding(StandardCharsets.UTF_8).build();
                LineInput in = JlineInput.of(t)) {
            assertThat(in.read(LineInput.PROMPT)).isEqualTo("what's the top \"customer\"!? \\o/");
            assertThat(in.read(LineInput.PROMPT)).isEqualTo("and last year?");
            assertThat(in.read(LineInput.PROMPT)).isNull();
        }
        assertThat(screen.toString(StandardCharsets.UTF_8)).contains(LineInput.PROMPT);
    }

    @Test
    void helpListsTheExitCodesAndTheEnvironment() {
        Run r = AskRunner.run("", Map.of(), "ask", "--help");

        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Exit codes:", "0   answered", "2   usage error", "3   rejected", "4   failed",
                "5   the database cannot be reached", "SQLAGENT_LLM_BASE_URL", "--password-env", "--all-tables",
                "--row-filter");
    }

    @Test
    void theSqliteFileOfAUrl() {
        assertThat(AskCommand.sqliteFile("jdbc:sqlite:/tmp/a.db")).isEqualTo(Path.of("/tmp/a.db"));
        assertThat(AskCommand.sqliteFile("jdbc:sqlite:file:/tmp/a.db?mode=ro")).isEqualTo(Path.of("/tmp/a.db"));
        assertThat(AskCommand.sqliteFile("jdbc:sqlite::memory:")).isNull();
        assertThat(AskCommand.sqliteFile("jdbc:sqlite:file:x?mode=memory&cache=shared")).isNull();
        assertThat(AskCommand.sqliteFile("jdbc:h2:mem:x")).isNull();
    }

    @Test
    void anEmbeddedH2UrlNeverCreatesADatabase() {
        assertThat(AskCommand.h2WithoutCreation("jdbc:h2:./shop")).isEqualTo("jdbc:h2:./shop;IFEXISTS=TRUE");
        assertThat(AskCommand.h2WithoutCreation("jdbc:h2:file:/x;MODE=PostgreSQL"))
                .isEqualTo("jdbc:h2:file:/x;MODE=PostgreSQL;IFEXISTS=TRUE");
        assertThat(AskCommand.h2WithoutCreation("jdbc:h2:./shop;ifexists=false")).isEqualTo("jdbc:h2:./shop;ifexists=false");
        assertThat(AskCommand.h2WithoutCreation("jdbc:h2:mem:x")).isEqualTo("jdbc:h2:mem:x");
        assertThat(AskCommand.h2WithoutCreation("jdbc:h2:tcp://h/x")).isEqualTo("jdbc:h2:tcp://h/x");
        assertThat(AskCommand.h2WithoutCreation("jdbc:sqlite:x")).isEqualTo("jdbc:sqlite:x");
    }

    @Test
    void aUrlIsShownWithoutItsParametersOrUserInformation() {
        assertThat(AskCommand.redact("jdbc:postgresql://h:5432/db?user=u&password=p")).isEqualTo("jdbc:postgresql://h:5432/db");
        assertThat(AskCommand.redact("jdbc:h2:./x;PASSWORD=p")).isEqualTo("jdbc:h2:./x");
        assertThat(AskCommand.redact("jdbc:mariadb://u:p@h/db")).isEqualTo("jdbc:mariadb://…@h/db");
    }

    @Test
    void csvFilesAreTheTablesOfALockedDuckDb() throws Exception {
        Path customers = dir.resolve("customers.csv");
        java.nio.file.Files.writeString(customers, "id,name,city\n1,Ann,Oslo\n2,Bo,Lund\n");
        Path orders = dir.resolve("orders.csv");
        java.nio.file.Files.writeString(orders, "id,customer_id,order_date\n1,1,2023-02-01\n2,2,2022-05-03\n");
        Run r = ask(model, "", Map.of(), "--csv", "customers=" + customers, "--csv", "orders=" + orders, CITIES);
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.outLines()).contains(" Ann  | Oslo", " Bo   | Lund", "(2 rows)");
        assertThat(r.err()).contains("customers, orders");
        FakeModel.Call call = model.calls("refiner").get(model.calls("refiner").size() - 1);
        assertThat(call.system()).contains("DuckDB");

        // a table that is not a registered file does not exist for the engine: no path, no other file
        Run salaries = ask(model, "", Map.of(), "--csv", "customers=" + customers, "What are the salaries?");
        assertThat(salaries.code()).as(salaries.toString()).isEqualTo(4);
        assertThat(salaries.out()).contains("TABLE_NOT_FOUND");

        Run both = ask(model, "", Map.of(), "--csv", "customers=" + customers, "--jdbc-url", h2, CITIES);
        assertThat(both.code()).isEqualTo(2);
        Run bad = ask(model, "", Map.of(), "--csv", "customers", CITIES);
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("NAME=FILE");
    }

    @Test
    void aDuckDbFileIsOpenedReadOnly() throws Exception {
        Path file = dir.resolve("shop.duckdb");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + file);
             java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE TABLE customers AS SELECT 1 AS id, 'Ann' AS name, 'Oslo' AS city");
        }
        Run r = ask(model, "", Map.of(), "--duckdb", file.toString(), "--allow-tables", "customers", CITIES);
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.outLines()).contains(" Ann  | Oslo");
    }
}
