package dev.sqlagent.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;

/**
 * Reads every incoming message before the SDK does, on both transports, so that any bad input gets a JSON-RPC
 * error naming what was wrong and the session goes on: not JSON ({@value #PARSE_ERROR}), not a JSON-RPC 2.0
 * message ({@value #INVALID_REQUEST}), a method the server does not offer ({@value #METHOD_NOT_FOUND}), bad
 * params or an unknown tool ({@value #INVALID_PARAMS}). It also handles {@code notifications/cancelled}: the
 * {@code tools/call} it names is cancelled, and with it the statement in the database.
 */
final class JsonRpcGate {

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;

    /** The {@code _meta} key a passed {@code tools/call} carries: the call's key in {@link Calls}. */
    static final String CALL_KEY = "dev.sqlagent/call";

    /** The requests the server answers; any other request is {@value #METHOD_NOT_FOUND}. */
    private static final Set<String> REQUESTS = Set.of("initialize", "ping", "tools/list", "tools/call",
            "resources/list", "resources/read", "resources/templates/list", "logging/setLevel");

    private final McpJsonMapper json;
    private final Set<String> tools;
    private final Calls calls;

    /**
     * @param json the SDK's mapper
     * @param tools the names of the tools offered
     * @param calls the calls under way, for cancellation
     */
    JsonRpcGate(McpJsonMapper json, Set<String> tools, Calls calls) {
        this.json = json;
        this.tools = Set.copyOf(tools);
        this.calls = calls;
    }

    /**
     * What becomes of one message: passed on (perhaps rewritten), answered with an error, or dropped.
     *
     * @param pass the message to hand the SDK, or null
     * @param error the error response to send, or null
     * @param code the error's code, or 0
     * @param request the id of a passed request, which the SDK will answer; null for anything else
     */
    record Verdict(String pass, String error, int code, Object request) {
        static Verdict passed(String message) {
            return new Verdict(message, null, 0, null);
        }

        static Verdict request(String message, Object id) {
            return new Verdict(message, null, 0, id);
        }

        static Verdict dropped() {
            return new Verdict(null, null, 0, null);
        }

        boolean isError() {
            return error != null;
        }
    }

    /**
     * @param message one message as received
     * @param session the session's key (for cancellation), never null
     * @return the verdict
     */
    @SuppressWarnings("unchecked")
    Verdict check(String message, String session) {
        Object parsed;
        try {
            parsed = json.readValue(message, Object.class);
        } catch (IOException | RuntimeException e) {
            return error(null, PARSE_ERROR, "Parse error: the message is not valid JSON");
        }
        if (parsed instanceof List<?>) {
            return error(null, INVALID_REQUEST, "Invalid Request: a batch (JSON array) is not supported; send one "
                    + "message at a time");
        }
        if (!(parsed instanceof Map<?, ?> raw)) {
            return error(null, INVALID_REQUEST, "Invalid Request: a message must be a JSON object");
        }
        Map<String, Object> m = (Map<String, Object>) raw;
        Object id = m.get("id");
        boolean hasId = m.containsKey("id");
        if (hasId && !(id instanceof String || id instanceof Integer || id instanceof Long || id instanceof BigInteger)) {
            return error(null, INVALID_REQUEST, "Invalid Request: id must be a string or an integer");
        }
        if (!"2.0".equals(m.get("jsonrpc"))) {
            return error(id, INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"");
        }
        if (!m.containsKey("method")) {
            if (hasId && (m.containsKey("result") || m.containsKey("error"))) {
                return Verdict.passed(message); // a client's response to a server request
            }
            return error(id, INVALID_REQUEST, "Invalid Request: the message has no method (a request or a "
                    + "notification needs one) and no result or error (as a response would)");
        }
        if (!(m.get("method") instanceof String method) || method.isBlank()) {
            return error(id, INVALID_REQUEST, "Invalid Request: method must be a non-blank string");
        }
        Object params = m.get("params");
        if (params != null && !(params instanceof Map<?, ?>)) {
            return hasId ? error(id, INVALID_PARAMS, "Invalid params: the params of " + method + " must be an object")
                    : Verdict.dropped();
        }
        if (!hasId) {
            if (method.equals("notifications/cancelled")) {
                Object target = params == null ? null : ((Map<?, ?>) params).get("requestId");
                if (target != null) {
                    calls.cancel(key(session, target));
                }
                return Verdict.dropped();
            }
            return Verdict.passed(message); // a notification: never answered, an unknown one is ignored
        }
        if (!REQUESTS.contains(method)) {
            return error(id, METHOD_NOT_FOUND, "Method not found: " + method);
        }
        if (method.equals("tools/call")) {
            Map<String, Object> p = params == null ? Map.of() : (Map<String, Object>) params;
            if (!(p.get("name") instanceof String name)) {
                return error(id, INVALID_PARAMS, "Invalid params: tools/call needs params.name, the name of a tool ("
                        + String.join(", ", tools.stream().sorted().toList()) + ")");
            }
            if (!tools.contains(name)) {
                return error(id, INVALID_PARAMS, "Unknown tool: " + name + " (the tools are "
                        + String.join(", ", tools.stream().sorted().toList()) + ")");
            }
            Object args = p.get("arguments");
            if (args != null && !(args instanceof Map<?, ?>)) {
                return error(id, INVALID_PARAMS, "Invalid params: the arguments of tool " + name + " must be an object");
            }
            Object meta = p.get("_meta");
            if (meta != null && !(meta instanceof Map<?, ?>)) {
                return error(id, INVALID_PARAMS, "Invalid params: _meta of tools/call must be an object");
            }
            // the call's key, so that a cancellation reaches it
            Map<String, Object> newMeta = new LinkedHashMap<>(meta == null ? Map.of() : (Map<String, Object>) meta);
            String key = key(session, id);
            newMeta.put(CALL_KEY, key);
            Map<String, Object> newParams = new LinkedHashMap<>(p);
            newParams.put("_meta", newMeta);
            Map<String, Object> rewritten = new LinkedHashMap<>(m);
            rewritten.put("params", newParams);
            calls.open(key);
            try {
                return Verdict.request(json.writeValueAsString(rewritten), id);
            } catch (IOException e) {
                calls.done(key);
                return Verdict.request(message, id);
            }
        }
        return Verdict.request(message, id);
    }

    private static String key(String session, Object id) {
        // 7 and "7" are different ids
        return session + '\u0000' + (id instanceof String s ? "s" + s : "n" + id);
    }

    private Verdict error(Object id, int code, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("message", message);
        return new Verdict(null, response(id, error), code, null);
    }

    /**
     * @param id the request's id, or null
     * @param error the error object
     * @return a JSON-RPC error response
     */
    String response(Object id, Map<String, Object> error) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("jsonrpc", "2.0");
        r.put("id", id);
        r.put("error", error);
        try {
            return json.writeValueAsString(r);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a JSON-RPC error", e);
        }
    }

    /**
     * The {@code tools/call} requests under way, by session and request id, for {@code notifications/cancelled}:
     * the gate opens a call, the tool attaches the future of its run, and a cancellation (before or after the
     * attachment) cancels that future, which cancels the statement in the database.
     */
    static final class Calls {
        private final Map<String, Call> open = new ConcurrentHashMap<>();

        private static final class Call {
            private Future<?> future;
            private boolean cancelled;
        }

        void open(String key) {
            open.put(key, new Call());
        }

        /**
         * Attaches a run to its call; a call already cancelled cancels it at once.
         *
         * @param key the call's key, or null (a call that did not pass the gate)
         * @param future the run
         */
        void attach(String key, Future<?> future) {
            Call c = key == null ? null : open.get(key);
            if (c == null) {
                return;
            }
            boolean cancel;
            synchronized (c) {
                c.future = future;
                cancel = c.cancelled;
            }
            if (cancel) {
                future.cancel(true);
            }
        }

        void cancel(String key) {
            Call c = open.get(key);
            if (c == null) {
                return; // finished already, or never known: the spec says to ignore it
            }
            Future<?> f;
            synchronized (c) {
                c.cancelled = true;
                f = c.future;
            }
            if (f != null) {
                f.cancel(true);
            }
        }

        void done(String key) {
            if (key != null) {
                open.remove(key);
            }
        }

    }
}
