package dev.sqlagent.cases;

import dev.sqlagent.internal.CaseJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * An append-only JSON Lines file of cases waiting for their store: one case a line, written with one
 * {@code write} call and flushed, so that after a crash the file is readable up to its last complete
 * line. A replay first {@linkplain #claim() claims} the file by renaming it to
 * {@code <stem>.replay-<n>.jsonl}; appends made meanwhile start a new file, and a claimed file left by a
 * crash is claimed again by the next replay (the sink's idempotent insert makes that harmless). Cases
 * that can never be stored (a permanent error) go to a separate dead-letter file,
 * {@code <stem>.rejected.jsonl}, which is never replayed by itself. Thread-safe.
 */
final class CaseJournal {

    private final Path file;
    private final Path deadLetters;
    private final String stem;
    private long claims;

    CaseJournal(Path file) {
        this.file = Objects.requireNonNull(file, "file").toAbsolutePath();
        String name = this.file.getFileName().toString();
        this.stem = name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
        this.deadLetters = this.file.resolveSibling(stem + ".rejected.jsonl");
    }

    /** {@return the journal file} */
    Path file() {
        return file;
    }

    /** {@return the dead-letter file} */
    Path deadLetters() {
        return deadLetters;
    }

    /** Appends a case to the journal. @param c the case @throws IOException when it cannot be written */
    synchronized void append(CaseRecord c) throws IOException {
        write(file, List.of(c));
    }

    /** Appends cases to the journal. @param cases the cases @throws IOException when they cannot be written */
    synchronized void appendAll(List<CaseRecord> cases) throws IOException {
        if (!cases.isEmpty()) {
            write(file, cases);
        }
    }

    /** Appends a case to the dead letters. @param c the case @throws IOException when it cannot be written */
    synchronized void reject(CaseRecord c) throws IOException {
        write(deadLetters, List.of(c));
    }

    private static void write(Path target, List<CaseRecord> cases) throws IOException {
        Path parent = target.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        StringBuilder sb = new StringBuilder();
        for (CaseRecord c : cases) {
            sb.append(CaseJson.write(c)).append('\n');
        }
        try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE)) {
            out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** {@return whether there is anything to replay: the journal or a claimed file left by a crash} */
    synchronized boolean hasEntries() {
        try {
            return !claimedFiles().isEmpty() || Files.exists(file) && Files.size(file) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Takes the journal (and any claimed file a crash left) for a replay.
     *
     * @return the claimed files, oldest first; empty when there is nothing
     * @throws IOException when the journal cannot be renamed
     */
    synchronized List<Path> claim() throws IOException {
        List<Path> out = new ArrayList<>(claimedFiles());
        if (Files.exists(file) && Files.size(file) > 0) {
            Path target = file.resolveSibling(stem + ".replay-" + System.currentTimeMillis() + "-" + claims++ + ".jsonl");
            Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
            out.add(target);
        }
        return out;
    }

    private List<Path> claimedFiles() throws IOException {
        Path dir = file.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return List.of();
        }
        String prefix = stem + ".replay-";
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith(prefix) && n.endsWith(".jsonl");
            }).sorted().toList();
        }
    }

    /**
     * Opens a claimed file to read it batch by batch, so that a replay starts before a long journal is
     * parsed to its end.
     *
     * @param claimed the file
     * @return the reader; close it
     * @throws IOException when the file cannot be opened
     */
    static Batches batches(Path claimed) throws IOException {
        return new Batches(Files.newBufferedReader(claimed, StandardCharsets.UTF_8));
    }

    /** Reads complete cases in batches, counting the lines that are not (a torn last line). */
    static final class Batches implements AutoCloseable {
        private final BufferedReader reader;
        private int torn;

        private Batches(BufferedReader reader) {
            this.reader = reader;
        }

        /** @param max the most cases  @return up to that many cases, empty at the end  @throws IOException on a read error */
        List<CaseRecord> next(int max) throws IOException {
            List<CaseRecord> out = new ArrayList<>();
            String line;
            while (out.size() < max && (line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                Optional<CaseRecord> c = CaseJson.read(line);
                if (c.isPresent()) {
                    out.add(c.get());
                } else {
                    torn++;
                }
            }
            return out;
        }

        /** {@return lines skipped so far} */
        int torn() {
            return torn;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
