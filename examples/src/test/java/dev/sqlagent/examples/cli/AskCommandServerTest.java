package dev.sqlagent.examples.cli;

import static dev.sqlagent.examples.cli.AskRunner.ask;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.examples.cli.AskRunner.Run;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ask} against the PostgreSQL and MariaDB servers (see {@link ShopDatabase} for where they are;
 * skipped with a banner when they do not answer, failed under {@code SQLAGENT_REQUIRE_SERVERS=true}), with
 * a fake OpenAI-compatible model over HTTP. The login's password goes through {@code --password-env}.
 */
class AskCommandServerTest {

    private static FakeModel model;

    @BeforeAll
    static void start() throws Exception {
        model = new FakeModel(AskRunner::shop);
    }

    @AfterAll
    static void stop() throws Exception {
        model.close();
    }

    private static Run ask(ShopDatabase.Server db, String stdin, String... args) {
        String[] all = new String[args.length + 8];
        System.arraycopy(new String[] {"--jdbc-url", db.url(), "--user", db.user(), "--password-env", "SHOP_PASSWORD",
            "--allow-tables", "customers,orders"}, 0, all, 0, 8);
        System.arraycopy(args, 0, all, 8, args.length);
        return AskRunner.ask(model, stdin, Map.of("SHOP_PASSWORD", db.password()), all);
    }

    @Test
    void postgresqlAnswersAsATable() {
        ShopDatabase.Server pg = ShopDatabase.postgres();
        Run r = ask(pg, "", "What cities do customers live in?");

        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.outLines()).containsExactly(
                " name | city",
                "------+------",
                " Ann  | Oslo",
                " Bo   | Lund",
                " 李雷 | 北京",
                "(3 rows)",
                "SQL: SELECT name, city FROM customers ORDER BY id",
                "ran: SELECT name, city FROM customers ORDER BY id LIMIT 1000");
        List<FakeModel.Call> calls = model.calls("refiner");
        assertThat(calls.get(calls.size() - 1).system()).contains("PostgreSQL", "customers", "orders")
                .doesNotContain("salaries");
    }

    @Test
    void postgresqlJsonAndTrace() {
        ShopDatabase.Server pg = ShopDatabase.postgres();
        Run r = ask(pg, "", "--json", "--trace", "How many orders were placed in 2023?");

        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.outLines()).hasSize(1);
        assertThat(r.out()).contains("\"status\":\"ANSWERED\"", "\"rows\":1", "\"columns\":[\"order_count\"]",
                "\"data\":[[3]]");
        assertThat(r.err()).as("the trace goes to stderr with --json").contains("GUARD     ACCEPTED", "EXECUTE   ok");
    }

    @Test
    void postgresqlRejectsAForbiddenTableWithExitThree() {
        ShopDatabase.Server pg = ShopDatabase.postgres();
        Run r = ask(pg, "", "What are the salaries?");

        assertThat(r.code()).as(r.toString()).isEqualTo(3);
        assertThat(r.out()).contains("REJECTED by the guard policy; nothing ran:", "TABLE_NOT_ALLOWED [salaries]");
    }

    @Test
    void postgresqlConversationRewritesTheFollowUp() {
        ShopDatabase.Server pg = ShopDatabase.postgres();
        int rewrites = model.calls("rewriter").size();
        Run r = ask(pg, "How many orders were placed in 2023?\nand last year?\n", "--json");

        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.outLines()).hasSize(2);
        assertThat(r.outLines().get(0)).contains("\"asked\":\"How many orders were placed in 2023?\"", "\"data\":[[3]]");
        assertThat(r.outLines().get(1)).contains("\"question\":\"How many orders were placed in 2022?\"",
                "\"asked\":\"and last year?\"", "\"data\":[[2]]", "\"llm_calls\":2");
        assertThat(model.calls("rewriter").subList(rewrites, model.calls("rewriter").size()))
                .extracting(FakeModel.Call::user).containsExactly("Follow-up: and last year?");
    }

    @Test
    void postgresqlRefusingTheLoginExitsFiveWithOneLine() {
        ShopDatabase.Server pg = ShopDatabase.postgres();
        Run r = AskRunner.ask(model, "", Map.of(), "--jdbc-url", pg.url(), "--user", "sqlagent_no_such_role",
                "--allow-tables", "orders", "How many orders?");

        assertThat(r.code()).as(r.toString()).isEqualTo(5);
        assertThat(r.err()).startsWith("ask: cannot connect to jdbc:postgresql://").contains("sqlagent_no_such_role")
                .doesNotContain("\tat ", "currentSchema");
        assertThat(r.err().strip()).doesNotContain("\n");
    }

    @Test
    void mariadbAnswersAndRejects() {
        ShopDatabase.Server maria = ShopDatabase.mariadb();
        Run answered = ask(maria, "", "--json", "What cities do customers live in?");
        Run rejected = ask(maria, "", "What are the salaries?");

        assertThat(answered.code()).as(answered.toString()).isZero();
        assertThat(answered.out()).contains("\"data\":[[\"Ann\",\"Oslo\"],[\"Bo\",\"Lund\"],[\"李雷\",\"北京\"]]");
        assertThat(rejected.code()).as(rejected.toString()).isEqualTo(3);
        List<FakeModel.Call> calls = model.calls("refiner");
        assertThat(calls.get(calls.size() - 1).system()).contains("MariaDB");

        Run noDatabase = AskRunner.ask(model, "", Map.of("SHOP_PASSWORD", maria.password()), "--jdbc-url",
                maria.url().replace("/" + ShopDatabase.NAME, "/"), "--user", maria.user(), "--password-env",
                "SHOP_PASSWORD", "--all-tables", "What cities do customers live in?");
        assertThat(noDatabase.code()).as(noDatabase.toString()).isEqualTo(2);
        assertThat(noDatabase.err().strip()).isEqualTo("ask: --all-tables: the URL selects no database; name one, as in"
                + " jdbc:mariadb://host/db");
    }
}
