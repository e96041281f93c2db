package dev.sqlagent.llm.openai;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server on 127.0.0.1 (port 0) that records every request and answers with replies scripted in
 * advance, like OkHttp's MockWebServer. With nothing scripted it answers 500. A {@link Reply#held() held}
 * reply is never sent: the request waits until the server closes, so a client time-out fires whatever the
 * machine's load, with no race between a server delay and the client's clock.
 */
final class LocalChatServer implements AutoCloseable {

    /** What the server saw. */
    record Recorded(String method, String path, Map<String, List<String>> headers, String body) {
        String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }
    }

    /** What the server answers. */
    record Reply(int status, String body, Map<String, String> headers, boolean hold) {
        static Reply json(int status, String body) {
            return new Reply(status, body, Map.of("Content-Type", "application/json"), false);
        }

        Reply withHeader(String name, String value) {
            Map<String, String> h = new java.util.LinkedHashMap<>(headers);
            h.put(name, value);
            return new Reply(status, body, h, hold);
        }

        /** @return this reply, never sent: its request waits until the server closes */
        Reply held() {
            return new Reply(status, body, headers, true);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final ConcurrentLinkedDeque<Reply> replies = new ConcurrentLinkedDeque<>();
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);

    LocalChatServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    LocalChatServer enqueue(Reply reply) {
        replies.addLast(reply);
        return this;
    }

    LocalChatServer enqueue(int status, String body) {
        return enqueue(Reply.json(status, body));
    }

    List<Recorded> requests() {
        return new ArrayList<>(requests);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(new Recorded(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    Map.copyOf(exchange.getRequestHeaders()), body));
            Reply reply = replies.pollFirst();
            if (reply == null) {
                reply = Reply.json(500, "{\"error\":{\"message\":\"nothing scripted\"}}");
            }
            if (reply.hold()) {
                try {
                    closing.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        } catch (IOException e) {
            // the client went away (a time-out test): nothing to answer
        }
    }

    @Override
    public void close() throws InterruptedException {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }
}
