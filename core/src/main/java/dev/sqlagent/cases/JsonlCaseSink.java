package dev.sqlagent.cases;

import dev.sqlagent.internal.CaseJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Appends cases to a JSON Lines file, one case a line, flushed (and forced to the device) per case, so
 * that after a crash the file is readable up to its last complete line ({@link #read} skips a torn last
 * line). When the file reaches the rotation size it is renamed {@code name.1.jsonl}, {@code name.2.jsonl},
 * … (the highest number is the newest closed file) and a new file is started. Thread-safe.
 */
public final class JsonlCaseSink implements CaseSink, AutoCloseable {

    /** Default rotation size: 64 MiB. */
    public static final long DEFAULT_ROTATE_BYTES = 64L * 1024 * 1024;

    private final Path file;
    private final long rotateBytes;
    private OutputStream out;
    private long size;

    private JsonlCaseSink(Path file, long rotateBytes) throws IOException {
        this.file = file;
        this.rotateBytes = rotateBytes;
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        open();
    }

    /**
     * Opens a sink on a file, rotating at the default size.
     *
     * @param file the file to append to (created with its folders when missing)
     * @return a sink rotating at {@link #DEFAULT_ROTATE_BYTES}
     * @throws IOException when the file cannot be opened
     */
    public static JsonlCaseSink open(Path file) throws IOException {
        return open(file, DEFAULT_ROTATE_BYTES);
    }

    /**
     * Opens a sink on a file, rotating at the given size.
     *
     * @param file the file to append to
     * @param rotateBytes the size at which the file is closed and a new one begun, at least 1 KiB
     * @return a sink
     * @throws IOException when the file cannot be opened
     * @throws IllegalArgumentException if {@code rotateBytes} is below 1024
     */
    public static JsonlCaseSink open(Path file, long rotateBytes) throws IOException {
        Objects.requireNonNull(file, "file");
        if (rotateBytes < 1024) {
            throw new IllegalArgumentException("rotateBytes must be >= 1024 but was " + rotateBytes);
        }
        return new JsonlCaseSink(file, rotateBytes);
    }

    private void open() throws IOException {
        out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE);
        size = Files.size(file);
    }

    @Override
    public synchronized void accept(CaseRecord record) throws IOException {
        byte[] line = (CaseJson.write(record) + "\n").getBytes(StandardCharsets.UTF_8);
        if (size > 0 && size + line.length > rotateBytes) {
            rotate();
        }
        out.write(line);
        out.flush();
        size += line.length;
    }

    private void rotate() throws IOException {
        out.close();
        String name = file.getFileName().toString();
        String stem = name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
        int n = 1;
        Path target;
        do {
            target = file.resolveSibling(stem + "." + n++ + ".jsonl");
        } while (Files.exists(target));
        Files.move(file, target);
        open();
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }

    /**
     * Reads the cases of a file written by this sink, skipping lines that are not complete cases (a torn
     * last line after a crash).
     *
     * @param file the file
     * @return the cases, in order
     * @throws IOException when the file cannot be read
     */
    public static List<CaseRecord> read(Path file) throws IOException {
        List<CaseRecord> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8); Stream<String> lines = r.lines()) {
            lines.forEach(l -> {
                Optional<CaseRecord> c = CaseJson.read(l);
                c.ifPresent(out::add);
            });
        }
        return out;
    }
}
