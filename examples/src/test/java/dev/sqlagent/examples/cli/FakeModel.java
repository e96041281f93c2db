package dev.sqlagent.examples.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A fake OpenAI-compatible model: a real HTTP server on 127.0.0.1 (port 0) that answers
 * {@code POST /v1/chat/completions} with what a function of the request says, and records every request.
 * The function sees the system and the last user message; {@link Call#role()} tells which agent role
 * asked, from the system prompt's opening.
 */
final class FakeModel implements AutoCloseable {

    private static final JsonFactory JSON = new JsonFactory();

    /** One chat request: its system message, its last user message, the model and the Authorization header. */
    record Call(String system, String user, String model, String authorization) {
        /** @return refiner, rewriter, selector, decomposer or other */
        String role() {
            if (system.startsWith("You write SQL")) {
                return "refiner";
            }
            if (system.startsWith("You rewrite")) {
                return "rewriter";
            }
            if (system.startsWith("You select")) {
                return "selector";
            }
            if (system.startsWith("You plan")) {
                return "decomposer";
            }
            return "other";
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Function<Call, String> answer;

    /** @param answer the reply's text for each request */
    FakeModel(Function<Call, String> answer) throws IOException {
        this.answer = answer;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** @return the base URL to give as {@code --base-url} */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** @return every request so far, in order */
    List<Call> calls() {
        return new ArrayList<>(calls);
    }

    /** @return the requests a role made, in order */
    List<Call> calls(String role) {
        List<Call> out = new ArrayList<>();
        for (Call c : calls) {
            if (c.role().equals(role)) {
                out.add(c);
            }
        }
        return out;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            int status = 200;
            String reply;
            if (!exchange.getRequestURI().getPath().endsWith("/chat/completions")) {
                status = 404;
                reply = "{\"error\":{\"message\":\"no such path\"}}";
            } else {
                Call call = parse(body, exchange.getRequestHeaders().getFirst("Authorization"));
                calls.add(call);
                reply = completion(answer.apply(call));
            }
            byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static Call parse(String body, String authorization) throws IOException {
        String system = "";
        String user = "";
        String model = "";
        try (JsonParser p = JSON.createParser(body)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals("model")) {
                    model = p.getText();
                } else if (field.equals("messages")) {
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        String role = "";
                        String content = "";
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String name = p.currentName();
                            p.nextToken();
                            if (name.equals("role")) {
                                role = p.getText();
                            } else if (name.equals("content")) {
                                content = p.getText();
                            } else {
                                p.skipChildren();
                            }
                        }
                        if (role.equals("system")) {
                            system = content;
                        } else if (role.equals("user")) {
                            user = content;
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
        return new Call(system, user, model, authorization);
    }

    private static String completion(String text) throws IOException {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("id", "fake-1");
            g.writeStringField("object", "chat.completion");
            g.writeStringField("model", "fake");
            g.writeArrayFieldStart("choices");
            g.writeStartObject();
            g.writeNumberField("index", 0);
            g.writeObjectFieldStart("message");
            g.writeStringField("role", "assistant");
            g.writeStringField("content", text);
            g.writeEndObject();
            g.writeStringField("finish_reason", "stop");
            g.writeEndObject();
            g.writeEndArray();
            g.writeObjectFieldStart("usage");
            g.writeNumberField("prompt_tokens", 100);
            g.writeNumberField("completion_tokens", 10);
            g.writeNumberField("total_tokens", 110);
            g.writeEndObject();
            g.writeEndObject();
        }
        return w.toString();
    }

    @Override
    public void close() throws InterruptedException {
        server.stop(0);
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }
}
