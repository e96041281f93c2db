package dev.sqlagent.testing;

import dev.sqlagent.execution.UrlDataSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL or MariaDB server for tests: where it is, whether it answers, the Spider databases loaded
 * on demand, and a read-only user.
 *
 * <p>Where: environment variables {@code SQLAGENT_PG_URL}, {@code SQLAGENT_PG_USER},
 * {@code SQLAGENT_PG_PASSWORD} and {@code SQLAGENT_MARIADB_URL}, {@code SQLAGENT_MARIADB_USER},
 * {@code SQLAGENT_MARIADB_PASSWORD}; by default PostgreSQL at {@code 127.0.0.1:5432} as {@code postgres}
 * and MariaDB at {@code 127.0.0.1:3306} as {@code root}, both without password, database {@code test}.
 *
 * <p>When the server does not answer, {@link #require()} fails the test if {@code SQLAGENT_REQUIRE_SERVERS}
 * is {@code true} (CI), and otherwise skips it with a banner on {@code System.err}, so that a skipped suite
 * is never mistaken for a passing one.
 *
 * <p>Loading is idempotent and safe across JVMs: a server-side lock serialises loaders, and a database is
 * loaded only when it is not already complete (every table and constraint of its script present, and rows
 * in the table the script fills last). PostgreSQL loads in one transaction; MariaDB cannot, so an
 * incomplete MariaDB database is dropped and loaded again.
 */
public final class DatabaseServer {

    /** The user {@link #readOnlyDataSource(String)} connects as. */
    public static final String READ_ONLY_USER = "sqlagent_readonly";
    /** The one Spider database the read-only user may read; every other one is denied to it. */
    public static final String READ_ONLY_GRANTED_DB = "concert_singer";

    private static final Pattern CREATE_TABLE = Pattern.compile("(?im)^CREATE TABLE (\\w+)\\.(\\w+)");
    private static final Pattern CONSTRAINT = Pattern.compile("(?im)ADD CONSTRAINT (\\w+)");
    private static final Pattern INSERT = Pattern.compile("(?im)^INSERT INTO (\\w+)\\.(\\w+)");

    private static final DatabaseServer POSTGRES = new DatabaseServer(Kind.POSTGRESQL,
            env("SQLAGENT_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test"),
            env("SQLAGENT_PG_USER", "postgres"), env("SQLAGENT_PG_PASSWORD", ""));
    private static final DatabaseServer MARIADB = new DatabaseServer(Kind.MARIADB,
            env("SQLAGENT_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test"),
            env("SQLAGENT_MARIADB_USER", "root"), env("SQLAGENT_MARIADB_PASSWORD", ""));

    /** The two server engines. */
    public enum Kind {
        /** PostgreSQL: one database, a schema per Spider database. */
        POSTGRESQL("PostgreSQL"),
        /** MariaDB: a database per Spider database. */
        MARIADB("MariaDB");

        private final String displayName;

        Kind(String displayName) {
            this.displayName = displayName;
        }
    }

    private final Kind kind;
    private final String url;
    private final String user;
    private final String password;
    private final Set<String> loaded = ConcurrentHashMap.newKeySet();
    private volatile String unreachable;
    private volatile boolean probed;
    private volatile boolean readOnlyUserReady;

    private DatabaseServer(Kind kind, String url, String user, String password) {
        this.kind = kind;
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** @return the PostgreSQL server */
    public static DatabaseServer postgres() {
        return POSTGRES;
    }

    /** @return the MariaDB server */
    public static DatabaseServer mariadb() {
        return MARIADB;
    }

    /** @return whether {@code SQLAGENT_REQUIRE_SERVERS=true}: an unreachable server fails the build */
    public static boolean serversRequired() {
        return "true".equalsIgnoreCase(System.getenv("SQLAGENT_REQUIRE_SERVERS"));
    }

    /** @return which engine */
    public Kind kind() {
        return kind;
    }

    /** @return the administrative JDBC URL (database {@code test}) */
    public String url() {
        return url;
    }

    /**
     * Makes sure the server answers: fails the test when servers are required, skips it (with a banner on
     * {@code System.err}) otherwise. Probes once per JVM.
     *
     * @return this
     */
    public DatabaseServer require() {
        if (!probed) {
            synchronized (this) {
                if (!probed) {
                    try (Connection c = adminDataSource().getConnection()) {
                        c.isValid(3);
                    } catch (SQLException e) {
                        unreachable = kind.displayName + " not reachable at " + url + " as " + user + ": "
                                + e.getMessage();
                    }
                    probed = true;
                }
            }
        }
        String why = unreachable;
        if (why != null) {
            if (serversRequired()) {
                Assertions.fail(why + " (SQLAGENT_REQUIRE_SERVERS=true)");
            }
            System.err.println("\n************************************************************************\n"
                    + "SKIPPED: " + why + "\n"
                    + "  start it (scripts/start-servers.sh) or set SQLAGENT_REQUIRE_SERVERS=true to fail\n"
                    + "************************************************************************");
            Assumptions.abort("SKIPPED: " + why);
        }
        return this;
    }

    /**
     * A data source, as the administrative user, on a schema (PostgreSQL) or database (MariaDB) of its own,
     * created if absent; a test fills it and drops nothing it did not create.
     *
     * @param name the schema's or database's name, lower case, prefixed by the test's branch or purpose
     * @return a data source selecting it
     * @throws IllegalStateException if it cannot be created
     */
    public DataSource scratch(String name) {
        require();
        try (Connection c = adminDataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(kind == Kind.POSTGRESQL ? "CREATE SCHEMA IF NOT EXISTS " + name
                    : "CREATE DATABASE IF NOT EXISTS " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create " + name + " on " + this + ": " + e.getMessage(), e);
        }
        String u = kind == Kind.POSTGRESQL ? withParameter(url, "currentSchema", name) : withDatabase(url, name);
        return new UrlDataSource(withConnectTimeout(u), user, password);
    }

    /** @return a data source for the administrative user on database {@code test} */
    public DataSource adminDataSource() {
        return new UrlDataSource(withConnectTimeout(url), user, password);
    }

    /**
     * Loads a Spider database if needed (see the class comment) and returns a data source on it.
     *
     * @param dbId the Spider database id
     * @return a data source as the administrative user, selecting that database
     */
    public DataSource spider(String dbId) {
        load(dbId);
        return new UrlDataSource(spiderUrl(dbId), user, password);
    }

    /**
     * @param dbId the Spider database id
     * @return the JDBC URL that selects it: {@code currentSchema} on PostgreSQL, the database on MariaDB
     */
    public String spiderUrl(String dbId) {
        if (kind == Kind.POSTGRESQL) {
            return withConnectTimeout(withParameter(url, "currentSchema", schemaName(dbId)));
        }
        return withConnectTimeout(withDatabase(url, dbId));
    }

    /**
     * A data source as {@link #READ_ONLY_USER}, who may read {@link #READ_ONLY_GRANTED_DB} and nothing else
     * and may write nothing; created (idempotently) on first use.
     *
     * @param dbId the Spider database to select (loaded if needed)
     * @return the data source
     */
    public DataSource readOnlyDataSource(String dbId) {
        load(dbId);
        load(READ_ONLY_GRANTED_DB);
        ensureReadOnlyUser();
        return new UrlDataSource(spiderUrl(dbId), READ_ONLY_USER, "");
    }

    /**
     * Loads Spider databases that are not loaded yet.
     *
     * @param dbIds the ids
     * @throws IllegalStateException if a script fails
     */
    public void load(String... dbIds) {
        require();
        for (String dbId : dbIds) {
            if (loaded.contains(dbId)) {
                continue;
            }
            try {
                if (kind == Kind.POSTGRESQL) {
                    loadPostgres(dbId);
                } else {
                    loadMariadb(dbId);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("could not load Spider database " + dbId + " into " + kind.displayName
                        + ": " + e.getMessage(), e);
            }
            loaded.add(dbId);
        }
    }

    private void loadPostgres(String dbId) throws SQLException {
        Script script = Script.read(spiderScript(dbId));
        try (Connection c = adminDataSource().getConnection()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(hashtext('sqlagent-spider-load'))");
                if (!complete(c, schemaName(dbId), script)) {
                    System.err.println("[sqlagent tests] loading Spider " + dbId + " into PostgreSQL");
                    s.execute("DROP SCHEMA IF EXISTS " + schemaName(dbId) + " CASCADE");
                    s.execute(script.text());
                }
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        }
    }

    private void loadMariadb(String dbId) throws SQLException {
        Script script = Script.read(spiderScript(dbId));
        String adminUrl = withParameter(withConnectTimeout(url), "allowMultiQueries", "true");
        try (Connection c = new UrlDataSource(adminUrl, user, password).getConnection();
                Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT GET_LOCK('sqlagent-spider-load', 600)")) {
                if (!rs.next() || rs.getInt(1) != 1) {
                    throw new SQLException("could not take the loader lock within 600 s");
                }
            }
            try {
                if (!complete(c, dbId, script)) {
                    System.err.println("[sqlagent tests] loading Spider " + dbId + " into MariaDB");
                    s.execute("DROP DATABASE IF EXISTS `" + dbId + "`");
                    s.execute(script.text());
                }
            } finally {
                try (ResultSet rs = s.executeQuery("SELECT RELEASE_LOCK('sqlagent-spider-load')")) {
                    rs.next();
                }
            }
        }
    }

    private boolean complete(Connection c, String schema, Script script) throws SQLException {
        Set<String> tables = new java.util.HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = ?")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    tables.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        for (String t : script.tables()) {
            if (!tables.contains(t.toLowerCase(Locale.ROOT))) {
                return false;
            }
        }
        Set<String> constraints = new java.util.HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT constraint_name FROM information_schema.table_constraints WHERE table_schema = ?")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    constraints.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        for (String k : script.constraints()) {
            if (!constraints.contains(k.toLowerCase(Locale.ROOT))) {
                return false;
            }
        }
        if (script.lastInsertTable() == null) {
            return true;
        }
        String q = kind == Kind.POSTGRESQL
                ? "SELECT 1 FROM " + schema + "." + script.lastInsertTable() + " LIMIT 1"
                : "SELECT 1 FROM `" + schema + "`.`" + script.lastInsertTable() + "` LIMIT 1";
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(q)) {
            return rs.next();
        }
    }

    private synchronized void ensureReadOnlyUser() {
        if (readOnlyUserReady) {
            return;
        }
        try (Connection c = adminDataSource().getConnection(); Statement s = c.createStatement()) {
            if (kind == Kind.POSTGRESQL) {
                try {
                    s.execute("CREATE ROLE " + READ_ONLY_USER + " LOGIN");
                } catch (SQLException e) {
                    if (!"42710".equals(e.getSQLState())) { // duplicate_object: another JVM made it
                        throw e;
                    }
                }
                String schema = schemaName(READ_ONLY_GRANTED_DB);
                s.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + READ_ONLY_USER);
                s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + READ_ONLY_USER);
            } else {
                s.execute("CREATE USER IF NOT EXISTS '" + READ_ONLY_USER + "'@'%'");
                s.execute("GRANT SELECT ON `" + READ_ONLY_GRANTED_DB + "`.* TO '" + READ_ONLY_USER + "'@'%'");
            }
        } catch (SQLException e) {
            Assumptions.abort("cannot create the read-only user " + READ_ONLY_USER + " on " + kind.displayName
                    + " (the admin user lacks the right?): " + e.getMessage());
        }
        readOnlyUserReady = true;
    }

    /** @param dbId a Spider id  @return the PostgreSQL schema name (unquoted names fold to lower case) */
    public static String schemaName(String dbId) {
        return dbId.toLowerCase(Locale.ROOT);
    }

    private Path spiderScript(String dbId) {
        return SharedData.spiderDir().resolve(kind == Kind.POSTGRESQL ? "postgres" : "mariadb").resolve(dbId + ".sql");
    }

    private String withConnectTimeout(String u) {
        if (u.contains("onnectTimeout=")) {
            return u;
        }
        return kind == Kind.POSTGRESQL ? withParameter(u, "connectTimeout", "5")
                : withParameter(u, "connectTimeout", "5000");
    }

    static String withParameter(String u, String name, String value) {
        return u + (u.contains("?") ? "&" : "?") + name + "=" + value;
    }

    /** Replaces the database part of a {@code jdbc:mariadb://host:port/db?…} URL. */
    static String withDatabase(String u, String database) {
        int hosts = u.indexOf("//");
        int slash = u.indexOf('/', hosts + 2);
        int query = u.indexOf('?');
        String params = query >= 0 ? u.substring(query) : "";
        String base = slash >= 0 && (query < 0 || slash < query) ? u.substring(0, slash)
                : (query >= 0 ? u.substring(0, query) : u);
        return base + "/" + database + params;
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    @Override
    public String toString() {
        return kind.displayName + " at " + url;
    }

    /** What a Spider script creates: its tables, named constraints and the table it fills last. */
    private record Script(String text, List<String> tables, List<String> constraints, String lastInsertTable) {

        private static final Map<Path, Script> CACHE = new ConcurrentHashMap<>();

        static Script read(Path file) {
            return CACHE.computeIfAbsent(file, f -> {
                try {
                    String text = Files.readString(f, StandardCharsets.UTF_8);
                    List<String> tables = new ArrayList<>();
                    Matcher m = CREATE_TABLE.matcher(text);
                    while (m.find()) {
                        tables.add(m.group(2));
                    }
                    List<String> constraints = new ArrayList<>();
                    m = CONSTRAINT.matcher(text);
                    while (m.find()) {
                        constraints.add(m.group(1));
                    }
                    String last = null;
                    m = INSERT.matcher(text);
                    while (m.find()) {
                        last = m.group(2);
                    }
                    return new Script(text, List.copyOf(tables), List.copyOf(constraints), last);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
