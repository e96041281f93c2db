package dev.sqlagent.mcp;

import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A running Streamable HTTP endpoint of a {@link SqlAgentMcpServer}, from
 * {@link SqlAgentMcpServer#startHttp(int)}: Jetty serving the MCP SDK's servlet transport behind the bearer-token
 * gate. Closing it stops the HTTP server and its MCP sessions; the agent stays open.
 */
public final class HttpEndpoint implements AutoCloseable {

    private final Server jetty;
    private final McpSyncServer mcp;
    private final URI uri;
    private volatile boolean closed;

    private HttpEndpoint(Server jetty, McpSyncServer mcp, URI uri) {
        this.jetty = jetty;
        this.mcp = mcp;
        this.uri = uri;
    }

    /**
     * Starts Jetty on the address with the transport at the path, behind the gate.
     *
     * @throws IOException when the address cannot be bound
     */
    static HttpEndpoint start(InetSocketAddress address, String path, HttpServletStreamableServerTransportProvider transport,
            McpSyncServer mcp, BearerAuth gate, JsonRpcFilter messages) throws IOException {
        QueuedThreadPool threads = new QueuedThreadPool(64, 4);
        threads.setName("sqlagent-mcp-http");
        threads.setDaemon(true);
        Server jetty = new Server(threads);
        ServerConnector connector = new ServerConnector(jetty);
        String bind = address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
        connector.setHost(bind);
        connector.setPort(address.getPort());
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder servlet = new ServletHolder("mcp", transport);
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, path);
        FilterHolder filter = new FilterHolder(gate);
        filter.setAsyncSupported(true);
        context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
        FilterHolder checks = new FilterHolder(messages);
        checks.setAsyncSupported(true);
        context.addFilter(checks, "/*", EnumSet.of(DispatcherType.REQUEST));
        jetty.setHandler(context);
        jetty.setStopTimeout(2_000);
        try {
            jetty.start();
        } catch (IOException e) {
            stopQuietly(jetty);
            throw e;
        } catch (Exception e) {
            stopQuietly(jetty);
            throw new IOException("cannot start the HTTP endpoint on " + address + ": " + e.getMessage(), e);
        }
        String host = bind.contains(":") ? "[" + bind + "]" : bind;
        return new HttpEndpoint(jetty, mcp, URI.create("http://" + host + ":" + connector.getLocalPort() + path));
    }

    /**
     * Returns the port the endpoint listens on (the one the system chose when started with port 0).
     *
     * @return the port
     */
    public int port() {
        return uri.getPort();
    }

    /**
     * Returns the endpoint's URL, such as {@code http://127.0.0.1:8765/mcp}, for a client's configuration.
     *
     * @return the URL
     */
    public URI uri() {
        return uri;
    }

    /**
     * Closes the MCP sessions and stops the HTTP server. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            mcp.close();
        } finally {
            stopQuietly(jetty);
        }
    }

    private static void stopQuietly(Server jetty) {
        try {
            jetty.stop();
        } catch (Exception e) {
            // stopping is best effort: the threads are daemons
        }
    }
}
