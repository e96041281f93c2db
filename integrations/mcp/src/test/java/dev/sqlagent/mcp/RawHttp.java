package dev.sqlagent.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 request written by hand on a socket, so that a test controls every header (the JDK's client
 * refuses to set {@code Host}).
 */
final class RawHttp {

    /** An MCP initialize request. */
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
    /** An MCP tools/list request. */
    static final String TOOLS_LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}";

    /** A response: status, headers (lower-case names), body. */
    record Response(int status, Map<String, String> headers, String body) {
    }

    private RawHttp() {
    }

    /**
     * @param endpoint the MCP URL
     * @param headers extra headers, {@code Host} among them if the test wants its own
     * @param body the JSON body
     * @return the response
     */
    static Response post(URI endpoint, Map<String, String> headers, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        StringBuilder req = new StringBuilder("POST " + endpoint.getPath() + " HTTP/1.1\r\n");
        Map<String, String> all = new LinkedHashMap<>();
        all.put("Host", "127.0.0.1:" + endpoint.getPort());
        all.put("Content-Type", "application/json");
        all.put("Accept", "application/json, text/event-stream");
        all.putAll(headers);
        all.put("Content-Length", String.valueOf(bytes.length));
        all.put("Connection", "close");
        all.forEach((k, v) -> req.append(k).append(": ").append(v).append("\r\n"));
        req.append("\r\n");
        try (Socket s = new Socket(endpoint.getHost(), endpoint.getPort())) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(bytes);
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            in.transferTo(buf);
            String text = buf.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            String head = end < 0 ? text : text.substring(0, end);
            String[] lines = head.split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            Map<String, String> h = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    h.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
                }
            }
            return new Response(status, h, end < 0 ? "" : text.substring(end + 4));
        }
    }
}
