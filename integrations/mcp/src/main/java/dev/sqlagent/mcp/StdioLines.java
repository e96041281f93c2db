package dev.sqlagent.mcp;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The stdio transport's plumbing between the client's streams and the SDK: the server reads the client's lines
 * itself ({@link In}, each bounded), hands the SDK only the lines the gate passed ({@link Feed}), and writes
 * whole lines to the client, its own errors and the SDK's messages never interleaved ({@link Out}).
 */
final class StdioLines {

    private StdioLines() {
    }

    /** One line read: its text, or that it was longer than the limit (its bytes were skipped). */
    record Line(String text, boolean tooLong) {
    }

    /** Reads newline-delimited lines of at most a given size. */
    static final class In {
        private final InputStream in;
        private final int max;

        In(InputStream in, int maxBytes) {
            this.in = new BufferedInputStream(in);
            this.max = maxBytes;
        }

        /** @return the next line, or null at the end of the input */
        Line next() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            boolean tooLong = false;
            int c;
            while ((c = in.read()) >= 0) {
                if (c == '\n') {
                    return line(b, tooLong);
                }
                if (b.size() < max) {
                    b.write(c);
                } else {
                    tooLong = true;
                }
            }
            return b.size() == 0 && !tooLong ? null : line(b, tooLong);
        }

        private static Line line(ByteArrayOutputStream b, boolean tooLong) {
            String s = b.toString(StandardCharsets.UTF_8);
            if (s.endsWith("\r")) {
                s = s.substring(0, s.length() - 1);
            }
            return new Line(tooLong ? "" : s, tooLong);
        }
    }

    /** The SDK's input: the lines the gate passed, then the end. */
    static final class Feed extends InputStream {
        private static final byte[] END = new byte[0];
        private final LinkedBlockingQueue<byte[]> lines = new LinkedBlockingQueue<>();
        private byte[] current = new byte[0];
        private int pos;
        private boolean ended;

        void add(String line) {
            lines.add((line + "\n").getBytes(StandardCharsets.UTF_8));
        }

        void end() {
            lines.add(END);
        }

        @Override
        public synchronized int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (pos >= current.length) {
                if (ended) {
                    return -1;
                }
                try {
                    byte[] next = lines.take();
                    if (next == END) {
                        ended = true;
                        return -1;
                    }
                    current = next;
                    pos = 0;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while waiting for input");
                }
            }
            int n = Math.min(len, current.length - pos);
            System.arraycopy(current, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public synchronized int available() {
            return current.length - pos;
        }
    }

    /**
     * Writes whole lines to the client, one at a time, and keeps the ids of the requests the SDK has yet to
     * answer, so that the end of the input waits for their answers.
     */
    static final class Out {
        private final OutputStream out;
        private final io.modelcontextprotocol.json.McpJsonMapper json;
        private final java.util.Set<Object> pending = java.util.concurrent.ConcurrentHashMap.newKeySet();

        Out(OutputStream out, io.modelcontextprotocol.json.McpJsonMapper json) {
            this.out = out;
            this.json = json;
        }

        /** A request handed to the SDK, which owes it an answer. */
        void expect(Object id) {
            pending.add(id);
        }

        /**
         * Waits until the SDK has answered every request handed to it, or the time is up.
         *
         * @param millis the longest wait
         * @return whether every request was answered
         */
        synchronized boolean awaitAnswers(long millis) throws InterruptedException {
            long deadline = System.nanoTime() + millis * 1_000_000;
            while (!pending.isEmpty()) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return false;
                }
                wait(left);
            }
            return true;
        }

        private void answered(byte[] line) {
            try {
                Object m = json.readValue(line, Object.class);
                if (m instanceof java.util.Map<?, ?> map && !map.containsKey("method") && map.get("id") != null
                        && pending.remove(map.get("id"))) {
                    synchronized (this) {
                        notifyAll();
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not a response the server owes
            }
        }

        /** Writes one line (a JSON-RPC message) and flushes it. */
        synchronized void write(String line) {
            try {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                // the client is gone; the end of its input ends the session
            }
        }

        private synchronized void writeRaw(byte[] b) throws IOException {
            out.write(b);
            out.flush();
        }

        /** @return a stream for the SDK: what it writes reaches the client a whole line at a time */
        OutputStream forSdk() {
            return new OutputStream() {
                private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

                @Override
                public synchronized void write(int b) throws IOException {
                    pending.write(b);
                    if (b == '\n') {
                        byte[] line = pending.toByteArray();
                        pending.reset();
                        writeRaw(line);
                        answered(line);
                    }
                }

                @Override
                public synchronized void write(byte[] b, int off, int len) throws IOException {
                    for (int i = off; i < off + len; i++) {
                        write(b[i]);
                    }
                }

                @Override
                public void flush() {
                    // whole lines are flushed as they end
                }
            };
        }
    }
}
