package dev.sqlagent.mcp;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP transport's gate, before any MCP message is read: the request must carry one of the host's bearer
 * tokens (compared in constant time, as SHA-256 digests, against every token), an {@code Origin} header only
 * from an allowed origin (a browser page elsewhere is refused), a {@code Host} header naming an allowed host
 * (on loopback: a loopback name, against DNS rebinding), and a session id only from the client that opened
 * that session. The authenticated {@link Client} goes into the request's attributes for the tools.
 */
final class BearerAuth implements Filter {

    private static final Logger LOG = LoggerFactory.getLogger("dev.sqlagent.mcp");
    private static final String SESSION_HEADER = "Mcp-Session-Id";

    /** A token's digest and the client it stands for. */
    record Token(byte[] digest, Client client) {
    }

    private final List<Token> tokens;
    private final Set<String> allowedOrigins;
    private final Set<String> allowedHosts;
    private final LongAdder refused;
    /** Which client opened each session; a session another token names is refused as unknown. */
    private final Cache<String, Client> sessions = Caffeine.newBuilder().maximumSize(100_000)
            .expireAfterAccess(Duration.ofHours(24)).build();

    /**
     * @param tokens the tokens, digested
     * @param allowedOrigins origins whose pages may call (exact, lower case); empty: none
     * @param allowedHosts host names (without port, lower case) the Host header may name; empty: any
     * @param refused counts refused requests
     */
    BearerAuth(List<Token> tokens, Set<String> allowedOrigins, Set<String> allowedHosts, LongAdder refused) {
        this.tokens = List.copyOf(tokens);
        this.allowedOrigins = Set.copyOf(allowedOrigins);
        this.allowedHosts = Set.copyOf(allowedHosts);
        this.refused = refused;
    }

    /**
     * @param token a token
     * @return its SHA-256 digest
     */
    static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String origin = request.getHeader("Origin");
        if (origin != null && !allowedOrigins.contains(origin.toLowerCase(Locale.ROOT))) {
            refuse(response, HttpServletResponse.SC_FORBIDDEN, "origin not allowed", request);
            return;
        }
        if (!allowedHosts.isEmpty() && !allowedHosts.contains(hostName(request.getHeader("Host")))) {
            refuse(response, HttpServletResponse.SC_FORBIDDEN, "host not allowed", request);
            return;
        }
        Client client = authenticate(request.getHeader("Authorization"));
        if (client == null) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"sqlagent\"");
            refuse(response, HttpServletResponse.SC_UNAUTHORIZED, "a valid bearer token is required", request);
            return;
        }
        String session = request.getHeader(SESSION_HEADER);
        if (session != null) {
            Client owner = sessions.getIfPresent(session);
            if (owner != client) {
                // unknown, expired or another client's session: the same answer as for an unknown session
                refuse(response, HttpServletResponse.SC_NOT_FOUND, "unknown session", request);
                return;
            }
            if ("DELETE".equalsIgnoreCase(request.getMethod())) {
                sessions.invalidate(session);
            }
        }
        request.setAttribute(Client.KEY, client);
        chain.doFilter(request, new HttpServletResponseWrapper(response) {
            @Override
            public void setHeader(String name, String value) {
                bind(name, value, client);
                super.setHeader(name, value);
            }

            @Override
            public void addHeader(String name, String value) {
                bind(name, value, client);
                super.addHeader(name, value);
            }
        });
    }

    /** A session id the server hands out belongs to the client whose request opened it. */
    private void bind(String name, String value, Client client) {
        if (SESSION_HEADER.equalsIgnoreCase(name) && value != null) {
            sessions.asMap().putIfAbsent(value, client);
        }
    }

    /** The client whose token the header carries, comparing against every token in constant time; or null. */
    private Client authenticate(String header) {
        if (header == null || header.length() < 7 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        byte[] presented = digest(header.substring(7).strip());
        Client found = null;
        for (Token t : tokens) {
            if (MessageDigest.isEqual(t.digest(), presented) && found == null) {
                found = t.client();
            }
        }
        return found;
    }

    private static String hostName(String host) {
        if (host == null) {
            return "";
        }
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? h : h.substring(0, end + 1);
        }
        int colon = h.lastIndexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }

    private void refuse(HttpServletResponse response, int status, String why, HttpServletRequest request)
            throws IOException {
        refused.increment();
        LOG.warn("mcp http {} refused with {}: {} (from {})", request.getMethod(), status, why,
                request.getRemoteAddr());
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        // a JSON-RPC error, as every answer of the endpoint; the reason is fixed text, never the input
        response.getWriter().write("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":"
                + (status == HttpServletResponse.SC_NOT_FOUND ? -32001 : -32600) + ",\"message\":\"" + why + "\"}}");
    }
}
