package dev.sqlagent.execution;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * Files as tables, never paths: an in-process DuckDB database (the {@code org.duckdb:duckdb_jdbc} driver on
 * the class path) in which the host registers CSV, Parquet and JSON files, or a folder of them, under table
 * names, and which is then locked down with DuckDB's own switches, so that a statement the guard wrongly
 * let through still cannot read another file.
 *
 * <p>{@link Builder#open()} creates one view per file ({@code CREATE VIEW sales AS SELECT * FROM
 * read_csv('…')}) before anything else runs, then sets, in this order: {@code allowed_paths} to exactly the
 * registered files (no directory: a directory would also let a statement write new files there),
 * {@code temp_directory} to none (DuckDB leaves its spill directory, {@code .tmp} under the working
 * directory by default, readable with external access off; without one, a query larger than memory fails
 * instead of spilling),
 * {@code memory_limit} to {@link Builder#memoryLimit(long)} (1 GiB by default: DuckDB runs in the host's
 * process, and its own default is 80 % of the machine's memory),
 * {@code autoinstall_known_extensions} and {@code autoload_known_extensions} off,
 * {@code enable_external_access = false} (no other file, URL, extension, {@code ATTACH} or {@code COPY}) and
 * {@code lock_configuration = true} (no statement can change a setting back), and checks that the switches
 * read back as set. The policy the guard checks with speaks only of the table names.
 *
 * <p>{@link Builder#database(Path)} opens an existing DuckDB file read-only instead (the driver's
 * {@code duckdb.read_only}) and locks it down the same way; files can be registered on top only for an
 * in-memory database.
 *
 * <p>The result is a {@link DataSource}: every {@link #getConnection()} is a new connection to the same
 * database ({@code DuckDBConnection.duplicate()}), which the caller closes; the settings are the database's,
 * so every connection is locked. {@link #close()} closes the database. Thread-safe.
 */
public final class DuckDbFiles implements DataSource, AutoCloseable {

    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    /**
     * The default cap on the memory DuckDB takes in the host's process: 1 GiB (DuckDB's own default is 80 % of
     * the machine's memory). {@link Builder#memoryLimit(long)} changes it.
     */
    public static final long DEFAULT_MEMORY_LIMIT = 1L << 30;

    private static final long MIN_MEMORY_LIMIT = 16L << 20;

    /** The readers a registered file is viewed through. */
    public enum Format {
        /** {@code read_csv} (header and types sniffed). */
        CSV("read_csv"),
        /** {@code read_parquet}. */
        PARQUET("read_parquet"),
        /** {@code read_json} (JSON array or newline-delimited). */
        JSON("read_json");

        private final String reader;

        Format(String reader) {
            this.reader = reader;
        }

        /**
         * Reads a format from a file's extension.
         *
         * @param file a file name
         * @return its format: {@code .csv}, {@code .tsv}, {@code .parquet}, {@code .json}, {@code .ndjson},
         *         {@code .jsonl}
         * @throws IllegalArgumentException for any other extension
         */
        public static Format ofFile(Path file) {
            String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
            if (n.endsWith(".csv") || n.endsWith(".tsv")) {
                return CSV;
            }
            if (n.endsWith(".parquet")) {
                return PARQUET;
            }
            if (n.endsWith(".json") || n.endsWith(".ndjson") || n.endsWith(".jsonl")) {
                return JSON;
            }
            throw new IllegalArgumentException("not a CSV, Parquet or JSON file: " + file);
        }
    }

    private final Connection primary;
    private final Map<String, Path> tables;
    private final Method duplicate;

    private DuckDbFiles(Connection primary, Map<String, Path> tables) throws SQLException {
        this.primary = primary;
        this.tables = Map.copyOf(tables);
        try {
            Object inner = primary.unwrap(Class.forName("org.duckdb.DuckDBConnection", true,
                    primary.getClass().getClassLoader()));
            this.duplicate = inner.getClass().getMethod("duplicate");
        } catch (ReflectiveOperationException e) {
            throw new SQLException("not a DuckDB connection: " + primary.getClass().getName(), e);
        }
    }

    /** {@return a builder} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the registered tables, by name, each with the real path of its file (empty for a database file)} */
    public Map<String, Path> tables() {
        return tables;
    }

    /**
     * Opens a new connection to the locked database.
     *
     * @return a connection the caller closes
     * @throws SQLException when the database is closed
     */
    @Override
    public Connection getConnection() throws SQLException {
        synchronized (primary) {
            if (primary.isClosed()) {
                throw new SQLException("the DuckDB database is closed");
            }
            try {
                return (Connection) duplicate.invoke(primary.unwrap(duplicate.getDeclaringClass()));
            } catch (ReflectiveOperationException e) {
                throw new SQLException("DuckDBConnection.duplicate failed", e);
            }
        }
    }

    /**
     * Same as {@link #getConnection()}: the database has no logins.
     *
     * @param user ignored
     * @param password ignored
     * @return a new connection
     * @throws SQLException when the database is closed
     */
    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return getConnection();
    }

    /** Closes the database (the connections handed out stop working). */
    @Override
    public void close() {
        synchronized (primary) {
            try {
                primary.close();
            } catch (SQLException e) {
                // closing: nothing to do
            }
        }
    }

    /**
     * Locks a DuckDB connection's database down: {@code allowed_paths}, extensions off, external access off,
     * configuration locked, each read back. Exposed for hosts that open DuckDB themselves and register their
     * own views first.
     *
     * @param c a connection to DuckDB whose registrations are done
     * @param allowedPaths the only files the engine may still open (the registered ones), may be empty
     * @throws SQLException when a switch cannot be set or does not read back as set (never lock half-way
     *                      silently)
     */
    public static void lockDown(Connection c, Collection<Path> allowedPaths) throws SQLException {
        lockDown(c, allowedPaths, DEFAULT_MEMORY_LIMIT);
    }

    /**
     * Locks a DuckDB connection's database down as {@link #lockDown(Connection, Collection)} does, with a cap
     * on the memory DuckDB may take inside the host's process ({@code memory_limit}): a statement that needs
     * more fails with DuckDB's {@code Out of Memory Error} (a {@code RESOURCE_LIMIT} failure) instead of
     * growing the host, since with no spill directory nothing can go to disk either.
     *
     * @param c a connection to DuckDB whose registrations are done
     * @param allowedPaths the only files the engine may still open (the registered ones), may be empty
     * @param memoryLimitBytes the most memory DuckDB may use, at least 16 MiB
     * @throws SQLException when a switch cannot be set or does not read back as set
     * @throws IllegalArgumentException when the limit is below 16 MiB
     */
    public static void lockDown(Connection c, Collection<Path> allowedPaths, long memoryLimitBytes)
            throws SQLException {
        if (memoryLimitBytes < MIN_MEMORY_LIMIT) {
            throw new IllegalArgumentException("a DuckDB memory limit of " + memoryLimitBytes
                    + " bytes is below 16 MiB, too little to run queries");
        }
        StringBuilder list = new StringBuilder("[");
        for (Path p : allowedPaths) {
            list.append(list.length() > 1 ? ", " : "").append(literal(p.toString()));
        }
        list.append(']');
        try (Statement s = c.createStatement()) {
            if (!allowedPaths.isEmpty()) {
                s.execute("SET allowed_paths = " + list);
            }
            // DuckDB keeps its spill directory (.tmp under the working directory by default) readable after
            // external access is off: no spill directory at all, so that no file there can be read
            s.execute("SET temp_directory = ''");
            s.execute("SET memory_limit = '" + (memoryLimitBytes / 1024) + "KiB'");
            s.execute("SET autoinstall_known_extensions = false");
            s.execute("SET autoload_known_extensions = false");
            s.execute("SET enable_external_access = false");
            s.execute("SET lock_configuration = true");
            try (ResultSet r = s.executeQuery("SELECT current_setting('enable_external_access'),"
                    + " current_setting('lock_configuration'), current_setting('temp_directory')")) {
                if (!r.next() || r.getBoolean(1) || !r.getBoolean(2) || !String.valueOf(r.getString(3)).isEmpty()) {
                    throw new SQLException("DuckDB did not keep the lock-down settings");
                }
            }
        }
    }

    /** A single-quoted SQL string literal. */
    static String literal(String s) {
        if (s.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a path with a NUL character");
        }
        return "'" + s.replace("'", "''") + "'";
    }

    /** The builder: register, then {@link #open()}. */
    public static final class Builder {
        private final Map<String, Path> files = new LinkedHashMap<>();
        private final Map<String, Format> formats = new LinkedHashMap<>();
        private Path database;
        private long memoryLimit = DEFAULT_MEMORY_LIMIT;

        private Builder() {
        }

        /**
         * Registers a CSV file as a table.
         *
         * @param table the table name (letters, digits, underscores; not starting with a digit)
         * @param file the file, which must exist
         * @return this builder
         * @throws IllegalArgumentException for a bad name, a name registered twice or a missing file
         */
        public Builder csv(String table, Path file) {
            return file(table, file, Format.CSV);
        }

        /**
         * Registers a Parquet file as a table.
         *
         * @param table the table name
         * @param file the file, which must exist
         * @return this builder
         * @throws IllegalArgumentException for a bad name, a name registered twice or a missing file
         */
        public Builder parquet(String table, Path file) {
            return file(table, file, Format.PARQUET);
        }

        /**
         * Registers a file as a table.
         *
         * @param table the table name
         * @param file the file, which must exist
         * @param format how to read it
         * @return this builder
         * @throws IllegalArgumentException for a bad name, a name registered twice or a missing file
         */
        public Builder file(String table, Path file, Format format) {
            Objects.requireNonNull(format, "format");
            if (table == null || !TABLE_NAME.matcher(table).matches()) {
                throw new IllegalArgumentException("table name must be letters, digits and underscores, not starting"
                        + " with a digit: " + table);
            }
            String key = table.toLowerCase(Locale.ROOT);
            if (files.containsKey(key)) {
                throw new IllegalArgumentException("table registered twice: " + table);
            }
            Path real;
            try {
                real = Objects.requireNonNull(file, "file").toRealPath();
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
            }
            if (!Files.isRegularFile(real)) {
                throw new IllegalArgumentException("not a file: " + file);
            }
            files.put(key, real);
            formats.put(key, format);
            return this;
        }

        /**
         * Registers every CSV, Parquet and JSON file directly in a folder, each under its base name
         * ({@code sales.csv} as {@code sales}); names that are not valid table names are skipped.
         *
         * @param folder the folder
         * @return this builder
         * @throws UncheckedIOException when the folder cannot be listed
         * @throws IllegalArgumentException when two files share a base name
         */
        public Builder folder(Path folder) {
            try (Stream<Path> list = Files.list(folder)) {
                for (Path p : list.sorted().toList()) {
                    String n = p.getFileName().toString();
                    int dot = n.lastIndexOf('.');
                    if (dot <= 0 || !Files.isRegularFile(p)) {
                        continue;
                    }
                    Format f;
                    try {
                        f = Format.ofFile(p);
                    } catch (IllegalArgumentException e) {
                        continue;
                    }
                    String table = n.substring(0, dot);
                    if (TABLE_NAME.matcher(table).matches()) {
                        file(table, p, f);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        /**
         * Opens an existing DuckDB database file, read-only, instead of an in-memory database.
         *
         * @param file the {@code .duckdb} file, which must exist
         * @return this builder
         * @throws IllegalArgumentException when the file does not exist
         */
        public Builder database(Path file) {
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("no DuckDB database file: " + file);
            }
            this.database = file.toAbsolutePath();
            return this;
        }

        /**
         * Caps the memory DuckDB may take inside the host's process (default {@link #DEFAULT_MEMORY_LIMIT}, 1 GiB).
         * A statement that needs more fails as a {@code RESOURCE_LIMIT} error; nothing spills to disk.
         *
         * @param bytes the cap, at least 16 MiB
         * @return this builder
         * @throws IllegalArgumentException when the cap is below 16 MiB
         */
        public Builder memoryLimit(long bytes) {
            if (bytes < MIN_MEMORY_LIMIT) {
                throw new IllegalArgumentException("a DuckDB memory limit of " + bytes
                        + " bytes is below 16 MiB, too little to run queries");
            }
            this.memoryLimit = bytes;
            return this;
        }

        /**
         * Opens the database, creates the views, locks it down.
         *
         * @return the locked database
         * @throws SQLException when DuckDB cannot open a file or a lock-down switch fails (nothing is left open)
         * @throws IllegalStateException when files are registered on top of a database file
         */
        public DuckDbFiles open() throws SQLException {
            if (database != null && !files.isEmpty()) {
                throw new IllegalStateException("files can be registered only on an in-memory database");
            }
            Properties props = new Properties();
            if (database != null) {
                props.setProperty("duckdb.read_only", "true");
            }
            Connection c = DriverManager.getConnection(database == null ? "jdbc:duckdb:" : "jdbc:duckdb:" + database,
                    props);
            try {
                List<Path> allowed = new ArrayList<>();
                try (Statement s = c.createStatement()) {
                    for (Map.Entry<String, Path> e : files.entrySet()) {
                        s.execute("CREATE VIEW \"" + e.getKey() + "\" AS SELECT * FROM "
                                + formats.get(e.getKey()).reader + "(" + literal(e.getValue().toString()) + ")");
                        allowed.add(e.getValue());
                    }
                }
                lockDown(c, allowed, memoryLimit);
                return new DuckDbFiles(c, files);
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e;
            }
        }
    }

    // ---------------------------------------------------------------- DataSource boilerplate

    /** {@return null: the driver logs nothing here} */
    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    /**
     * Ignored.
     *
     * @param out ignored
     */
    @Override
    public void setLogWriter(PrintWriter out) {
    }

    /**
     * Ignored: connecting is in-process.
     *
     * @param seconds ignored
     */
    @Override
    public void setLoginTimeout(int seconds) {
    }

    /** {@return 0: no login timeout} */
    @Override
    public int getLoginTimeout() {
        return 0;
    }

    /**
     * Not supported.
     *
     * @return never
     * @throws SQLFeatureNotSupportedException always
     */
    @Override
    public java.util.logging.Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no parent logger");
    }

    /**
     * Unwraps to this class only.
     *
     * @param iface the interface
     * @param <T> its type
     * @return this
     * @throws SQLException when this is not an {@code iface}
     */
    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a " + iface.getName());
    }

    /**
     * Says whether this is an {@code iface}.
     *
     * @param iface the interface
     * @return whether this is one
     */
    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
