package dev.sqlagent.eval;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append-only files of an evaluation and their recovery after a crash. The results file is the
 * commit log: a question is finished when its line is there in full. Recovery keeps the complete,
 * parseable lines (dropping a torn last line), keeps the first line of each id, and rewrites the
 * trajectory files to hold exactly one line per finished question.
 */
final class ResultsFiles {

    private static final Logger LOG = LoggerFactory.getLogger(ResultsFiles.class);

    private ResultsFiles() {
    }

    /** The recovered results, by id in file order, and how many lines were dropped. */
    record Recovered(Map<String, EvalRecord> records, int dropped) {
    }

    static Recovered recoverResults(Path file) throws IOException {
        Map<String, EvalRecord> records = new LinkedHashMap<>();
        List<String> keep = new ArrayList<>();
        int dropped = 0;
        if (!Files.exists(file)) {
            return new Recovered(records, 0);
        }
        boolean torn = endsTorn(file);
        dropped += torn ? 1 : 0;
        if (torn) {
            LOG.warn("{}: dropping a torn last line (the run was interrupted while writing it)", file);
        }
        for (String line : completeLines(file)) {
            try {
                EvalRecord r = EvalRecord.fromMap(Json.parseObject(line));
                if (records.putIfAbsent(r.id(), r) == null) {
                    keep.add(line);
                } else {
                    dropped++;
                }
            } catch (IOException | RuntimeException e) {
                dropped++;
                LOG.warn("{}: dropping an unreadable results line: {}", file, e.getMessage());
            }
        }
        rewrite(file, keep);
        return new Recovered(records, dropped);
    }

    static void keepFinished(Path file, Set<String> finished) throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        List<String> keep = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        for (String line : completeLines(file)) {
            try {
                String id = Json.text(Json.parseObject(line).get("id"));
                if (finished.contains(id) && seen.add(id)) {
                    keep.add(line);
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("{}: dropping an unreadable trajectory line: {}", file, e.getMessage());
            }
        }
        rewrite(file, keep);
    }

    /** The lines that end with a newline; a last line without one was torn by a crash. */
    private static List<String> completeLines(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
            String line = text.substring(start, i);
            if (!line.isBlank()) {
                out.add(line);
            }
            start = i + 1;
        }
        return out;
    }

    private static boolean endsTorn(Path file) throws IOException {
        long size = Files.size(file);
        if (size == 0) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer last = ByteBuffer.allocate(1);
            ch.read(last, size - 1);
            return last.get(0) != '\n';
        }
    }

    private static void rewrite(Path file, List<String> lines) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        StringBuilder sb = new StringBuilder();
        for (String l : lines) {
            sb.append(l).append('\n');
        }
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8));
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** An append-only line file: each line is handed to the OS at once, forced to disk on demand. */
    static final class Appender implements AutoCloseable {
        private final FileChannel channel;

        Appender(Path file) throws IOException {
            this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
        }

        void append(String line) throws IOException {
            ByteBuffer buf = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
            while (buf.hasRemaining()) {
                channel.write(buf);
            }
        }

        void force() throws IOException {
            channel.force(false);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
