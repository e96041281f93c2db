package dev.sqlagent.examples.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs the command line's entry point as a user would: arguments, standard input, environment; captures the rest. */
final class AskRunner {

    private static final JsonFactory JSON = new JsonFactory();
    private static final Pattern YEAR = Pattern.compile("\\b(20\\d\\d)\\b");

    /** What a run left. */
    record Run(int code, String out, String err) {
        List<String> outLines() {
            List<String> lines = new ArrayList<>();
            for (String l : out.split("\n")) {
                if (!l.isBlank()) {
                    lines.add(l);
                }
            }
            return lines;
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** A SQL of more than 220 characters, which the text output once cut. */
    static final String LONG_SQL = "SELECT c.id AS customer_identifier, c.name AS customer_name, c.city AS"
            + " customer_city, o.id AS order_identifier, o.amount AS order_amount, o.order_date AS order_placed_on"
            + " FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.amount > 0 ORDER BY c.id, o.id";

    private AskRunner() {
    }

    /** Runs {@code sqlagent args…} with this standard input and environment. */
    static Run run(String stdin, Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SqlAgentCli.run(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                env, args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Runs {@code sqlagent ask --base-url <the fake> --model fake-sql args…}. */
    static Run ask(FakeModel model, String stdin, Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of("ask", "--base-url", model.baseUrl(), "--model", "fake-sql"));
        all.addAll(List.of(args));
        return run(stdin, env, all.toArray(new String[0]));
    }

    /**
     * The fake model for the shop: SQL for a question about orders of a year, customers' cities or
     * salaries, prose for anything else; "and last year?" rewritten to the orders of 2022.
     */
    static String shop(FakeModel.Call call) {
        switch (call.role()) {
            case "refiner": {
                String q = call.user();
                Matcher year = YEAR.matcher(q);
                if (q.contains("orders") && year.find()) {
                    int y = Integer.parseInt(year.group(1));
                    return "SELECT COUNT(*) AS order_count FROM orders WHERE order_date >= '" + y + "-01-01'"
                            + " AND order_date < '" + (y + 1) + "-01-01'";
                }
                if (q.contains("every order with its customer")) {
                    return LONG_SQL;
                }
                if (q.contains("cities")) {
                    return "SELECT name, city FROM customers ORDER BY id";
                }
                if (q.contains("salar")) {
                    return "SELECT customer_id, salary FROM salaries";
                }
                return "I am sorry, I only know about orders and customers.";
            }
            case "rewriter":
                return call.user().contains("and last year?") ? "{\"question\": \"How many orders were placed in 2022?\"}"
                        : "{\"question\": \"" + call.user().replace("Follow-up: ", "") + "\"}";
            default:
                return "{}";
        }
    }

    /** @return the top-level field names of a JSON object, in order */
    static Set<String> fields(String jsonObject) {
        Set<String> names = new LinkedHashSet<>();
        try (JsonParser p = JSON.createParser(jsonObject)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("not a JSON object: " + jsonObject);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                names.add(p.currentName());
                p.nextToken();
                p.skipChildren();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }
}
