package dev.sqlagent.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on loopback between a client and a server, for outage tests. {@link Mode#FORWARD} passes
 * bytes both ways; {@link Mode#CUT} closes every connection and refuses new ones (a server down);
 * {@link Mode#PARTITION} keeps connections open but forwards nothing in either direction (a silent
 * network: bytes are held, and delivered if forwarding resumes); {@link Mode#NO_REPLIES} forwards what
 * the client sends and holds what the server answers (a lost acknowledgement).
 */
final class TcpProxy implements AutoCloseable {

    /** What the proxy does with traffic. */
    enum Mode {
        FORWARD, CUT, PARTITION, NO_REPLIES
    }

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile Mode mode = Mode.FORWARD;
    private volatile boolean closed;

    TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "tcp-proxy-accept-" + port());
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return server.getLocalPort();
    }

    Mode mode() {
        return mode;
    }

    void mode(Mode m) {
        synchronized (this) {
            mode = m;
            notifyAll();
        }
        if (m == Mode.CUT) {
            for (Socket s : sockets) {
                closeQuietly(s);
            }
            sockets.clear();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            if (mode == Mode.CUT) {
                closeQuietly(client);
                continue;
            }
            Socket upstream = new Socket();
            try {
                upstream.connect(new InetSocketAddress(targetHost, targetPort), 5000);
            } catch (IOException e) {
                closeQuietly(client);
                closeQuietly(upstream);
                continue;
            }
            try {
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
            } catch (IOException ignored) {
                // only latency
            }
            sockets.add(client);
            sockets.add(upstream);
            pump(client, upstream, false);
            pump(upstream, client, true);
        }
    }

    private void pump(Socket from, Socket to, boolean reply) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (!awaitForwarding(reply)) {
                        break;
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the other side closed, or the proxy cut the connection
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
            }
        }, "tcp-proxy-pump-" + port());
        t.setDaemon(true);
        t.start();
    }

    /** @return false when the connection must close; waits while this direction is held */
    private synchronized boolean awaitForwarding(boolean reply) throws InterruptedException {
        while (true) {
            Mode m = mode;
            if (m == Mode.CUT || closed) {
                return false;
            }
            if (m == Mode.FORWARD || (m == Mode.NO_REPLIES && !reply)) {
                return true;
            }
            wait(100);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        mode(Mode.CUT);
        server.close();
    }
}
