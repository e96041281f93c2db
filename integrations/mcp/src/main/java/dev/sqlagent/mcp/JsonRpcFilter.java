package dev.sqlagent.mcp;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP transport's message checks, after the bearer-token gate and before the SDK's servlet: the
 * {@code MCP-Protocol-Version} header must name a version the server speaks (else 400); a POSTed message goes
 * through the {@link JsonRpcGate} (a bad one gets its JSON-RPC error: 400 for a body that is not a JSON-RPC
 * message, 200 with the error for an unknown method or bad params, 413 for a body over the limit); every
 * error the SDK answers with becomes a JSON-RPC error body naming the cause and nothing of the server's
 * internals; and every server-sent event gets an id of its own (the SDK gives each the session id).
 */
final class JsonRpcFilter implements Filter {

    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.mcp");
    private static final String SESSION_HEADER = "Mcp-Session-Id";
    private static final String VERSION_HEADER = "MCP-Protocol-Version";

    private final JsonRpcGate gate;
    private final int maxRequestBytes;
    private final List<String> versions;
    private final AtomicLong eventIds = new AtomicLong();

    /**
     * @param gate checks each message
     * @param maxRequestBytes the largest body accepted
     * @param versions the protocol versions the server speaks
     */
    JsonRpcFilter(JsonRpcGate gate, int maxRequestBytes, List<String> versions) {
        this.gate = gate;
        this.maxRequestBytes = maxRequestBytes;
        this.versions = List.copyOf(versions);
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String version = request.getHeader(VERSION_HEADER);
        if (version != null && !versions.contains(version.strip())) {
            error(response, 400, JsonRpcGate.INVALID_REQUEST, "Unsupported protocol version: " + version.strip()
                    + " (this server speaks " + String.join(", ", versions) + ")");
            return;
        }
        HttpServletRequest passed = request;
        if ("POST".equalsIgnoreCase(request.getMethod())) {
            byte[] body = read(request.getInputStream());
            if (body == null) {
                error(response, 413, JsonRpcGate.INVALID_REQUEST, "Invalid Request: the body is longer than "
                        + maxRequestBytes + " bytes");
                return;
            }
            String session = request.getHeader(SESSION_HEADER);
            JsonRpcGate.Verdict v = gate.check(new String(body, StandardCharsets.UTF_8),
                    "http:" + (session == null ? "" : session));
            if (v.isError()) {
                LOG.info("mcp http message refused with {}", v.code());
                boolean malformed = v.code() == JsonRpcGate.PARSE_ERROR || v.code() == JsonRpcGate.INVALID_REQUEST;
                write(response, malformed ? 400 : 200, v.error());
                return;
            }
            if (v.pass() == null) {
                response.setStatus(202); // a notification the server took (a cancellation)
                return;
            }
            passed = new Body(request, v.pass().getBytes(StandardCharsets.UTF_8));
        }
        Response wrapped = new Response(response);
        chain.doFilter(passed, wrapped);
        wrapped.finish();
    }

    /** @return the body, or null when it is longer than the limit */
    private byte[] read(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) >= 0; ) {
            b.write(buf, 0, n);
            if (b.size() > maxRequestBytes) {
                return null;
            }
        }
        return b.toByteArray();
    }

    private void error(HttpServletResponse response, int status, int code, String message) throws IOException {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("code", code);
        e.put("message", message);
        write(response, status, gate.response(null, e));
    }

    private static void write(HttpServletResponse response, int status, String json) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(json);
        response.getWriter().flush();
    }

    /** The request with the body the gate passed (perhaps rewritten). */
    private static final class Body extends HttpServletRequestWrapper {
        private final byte[] body;

        Body(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body is read already");
                }

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }

    /**
     * The SDK's response: an error status keeps its body aside, to be written as a JSON-RPC error
     * ({@link #finish()}); an event stream gets an id of its own for every event.
     */
    private final class Response extends HttpServletResponseWrapper {
        private int status = 200;
        private StringWriter held;
        private PrintWriter writer;

        Response(HttpServletResponse response) {
            super(response);
        }

        @Override
        public void setStatus(int sc) {
            status = sc;
            super.setStatus(sc);
        }

        @Override
        public void sendError(int sc, String msg) throws IOException {
            status = sc;
            error((HttpServletResponse) getResponse(), sc, code(sc), msg == null ? reason(sc) : msg);
        }

        @Override
        public void sendError(int sc) throws IOException {
            sendError(sc, null);
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (writer != null) {
                return writer;
            }
            if (status >= 400) {
                held = new StringWriter();
                writer = new PrintWriter(held);
            } else if (String.valueOf(getContentType()).toLowerCase(Locale.ROOT).startsWith("text/event-stream")) {
                writer = new PrintWriter(new EventIds(super.getWriter()));
            } else {
                writer = super.getWriter();
            }
            return writer;
        }

        /** Writes a held error body as a JSON-RPC error: the cause's message, no class, no stack trace. */
        void finish() throws IOException {
            if (held == null) {
                return;
            }
            writer.flush();
            int code = code(status);
            String message = reason(status);
            try {
                Object parsed = McpJsonDefaultsHolder.MAPPER.readValue(held.toString(), Object.class);
                if (parsed instanceof Map<?, ?> m) {
                    Object rpc = m.get("jsonRpcError");
                    if (rpc instanceof Map<?, ?> e) {
                        // the code follows the status (the SDK's own codes do not fit its refusals)
                        if (e.get("message") instanceof String s && !s.isBlank()) {
                            message = s;
                        }
                    } else if (m.get("message") instanceof String s && !s.isBlank()) {
                        message = s;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not JSON: the status's own reason
            }
            HttpServletResponse r = (HttpServletResponse) getResponse();
            r.setContentType("application/json");
            r.setCharacterEncoding("UTF-8");
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("code", code);
            e.put("message", message);
            r.getWriter().write(gate.response(null, e));
            r.getWriter().flush();
        }
    }

    private static int code(int status) {
        return status == 404 ? -32001 : status == 405 ? JsonRpcGate.METHOD_NOT_FOUND : JsonRpcGate.INVALID_REQUEST;
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 404 -> "Session not found";
            case 405 -> "Method not allowed";
            case 406 -> "Not Acceptable: send Accept: application/json, text/event-stream";
            case 413 -> "Request too large";
            case 415 -> "Unsupported Media Type: send Content-Type: application/json";
            default -> "HTTP " + status;
        };
    }

    /** Rewrites every {@code id:} line of an event stream to an id of its own. */
    private final class EventIds extends Writer {
        private final PrintWriter out;
        private final StringBuilder line = new StringBuilder();

        EventIds(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void write(char[] cbuf, int off, int len) throws IOException {
            for (int i = off; i < off + len; i++) {
                char c = cbuf[i];
                line.append(c);
                if (c == '\n') {
                    String l = line.toString();
                    out.write(l.startsWith("id:") ? "id: " + eventIds.incrementAndGet() + "\n" : l);
                    line.setLength(0);
                }
            }
        }

        @Override
        public void flush() throws IOException {
            out.flush();
            if (out.checkError()) {
                throw new IOException("Client disconnected");
            }
        }

        @Override
        public void close() throws IOException {
            if (line.length() > 0) {
                out.write(line.toString());
                line.setLength(0);
            }
            out.close();
        }
    }

    /** The SDK's default mapper, read once. */
    private static final class McpJsonDefaultsHolder {
        static final io.modelcontextprotocol.json.McpJsonMapper MAPPER =
                io.modelcontextprotocol.json.McpJsonDefaults.getMapper();
    }
}
