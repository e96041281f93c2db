package dev.sqlagent.guard;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.DuckDbFiles;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.testing.DatabaseServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * Twin databases for the outsider's judgement of the guard, on H2, SQLite, PostgreSQL, MariaDB and DuckDB: two
 * databases with the same schema that differ <em>only</em> in what the policy forbids, so that any answer
 * whose rows differ between the twins read forbidden data, whoever says otherwise.
 *
 * <p>The schema: {@code people} (all rows visible; {@code ssn} and {@code salary} denied; {@code ssn_key}
 * a generated column computed from the denied {@code ssn}, which the policy does <em>not</em> name and which
 * must be treated as denied all the same), {@code pets} (row filter {@code owner = 'alice'}),
 * {@code orders} (row filter {@code tenant = 't1'} and the denied column {@code card}: a filtered table with
 * a denied column), {@code secrets} (not allowed at all) and, on SQLite, the full-text table
 * {@code notes_fts} (FTS5, allowed). Twin A and twin B hold the same allowed data; every forbidden value is
 * a marker (text starting {@code ZQX}, salaries of nine digits) that differs between the twins in value,
 * length, order and duplication, and the twins hold different numbers of forbidden rows. Indexes on the denied
 * {@code people.ssn}, on {@code (dept, salary)} and on {@code (tenant, card)} order rows by forbidden data, and
 * the twins' forbidden values order the same rows differently (A's rise with the id, B's fall), so that a read
 * through one of them shows as twins that differ.
 *
 * <p>Restricted logins ({@link #RESTRICTED_USER}) have exactly the grants the policy allows, as
 * {@code docs/security.md} recommends: on PostgreSQL a role with column grants and row-level security for
 * the row filters, on MariaDB a user with column grants, on H2 a user with table grants (H2 has no column
 * grants). SQLite and DuckDB have no logins; DuckDB's twins are database files opened read-only and locked
 * down by {@link DuckDbFiles}, as a host opens one.
 *
 * <p>Server databases are {@code hostile<version>_twin_a} and {@code hostile<version>_twin_b} (schema
 * {@code hostile} on PostgreSQL): each fixture version has its own, so that test JVMs running different
 * versions of this class at the same time never rebuild each other's; a twin is built once, under a
 * server-side lock, and marked complete with {@link #VERSION} (a schema or table comment).
 */
final class HostileFixture {

    /** Bumped whenever the schema or the data change: the servers' twins are rebuilt then. */
    static final String VERSION = "hostile fixture 8";
    /** The server databases' names start with this: one pair per fixture version. */
    static final String DATABASE_PREFIX = "hostile8_twin_";
    /** The login with only the policy's grants. */
    static final String RESTRICTED_USER = "hostile_reader";
    /** The row filter values. */
    static final String PET_OWNER = "alice";
    static final String ORDER_TENANT = "t1";
    /** The generated column computed from the denied {@code people.ssn}. */
    static final String GENERATED_FROM_DENIED = "people.ssn_key";

    private static final int PEOPLE = 12;
    private static final List<String> NAMES = List.of("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy",
            "jon", "kai", "lou");
    private static final List<String> CITIES = List.of("Oslo", "Lima", "Pune", "Kyiv");
    private static final List<String> KINDS = List.of("cat", "dog", "fish", "cat", "bird", "dog");
    private static final List<String> STATUSES = List.of("open", "shipped", "closed");

    private static final Map<Dialect, Twins> TWINS = new EnumMap<>(Dialect.class);

    private HostileFixture() {
    }

    /**
     * The two databases of one engine and, where the engine has logins, the restricted login on twin A.
     *
     * @param dialect the engine
     * @param a twin A, read by a login that can read everything
     * @param b twin B, the same login
     * @param restrictedA twin A as {@link #RESTRICTED_USER}, or null (SQLite)
     * @param scratch a directory for files the in-process engines may be made to write or read
     */
    record Twins(Dialect dialect, DataSource a, DataSource b, DataSource restrictedA, Path scratch) {
        DataSource twin(int which) {
            return which == 0 ? a : b;
        }
    }

    /** The engines, in the order the suites run them. */
    static final List<Dialect> ENGINES = List.of(Dialect.H2, Dialect.SQLITE, Dialect.POSTGRESQL, Dialect.MARIADB,
            Dialect.DUCKDB);

    /**
     * The policy a host would write for this schema: allowed tables, denied columns, two row filters, the
     * dialect's standard functions unless told otherwise.
     *
     * @param dialect the engine (SQLite also allows its full-text table)
     * @param functions the function policy
     * @return the policy
     */
    static GuardPolicy policy(Dialect dialect, FunctionPolicy functions) {
        GuardPolicy.Builder b = GuardPolicy.builder().allowTables("people", "pets", "orders")
                .denyColumn("people", "ssn").denyColumn("people", "salary").denyColumn("orders", "card")
                .rowFilter("pets", "owner", PET_OWNER).rowFilter("orders", "tenant", ORDER_TENANT)
                .functionPolicy(functions);
        if (dialect == Dialect.SQLITE) {
            b.allowTables("notes_fts");
        }
        return b.build();
    }

    /**
     * The denied columns as the judge sees them: the policy's, and the generated column computed from one.
     *
     * @return {@code table.column}, lower case
     */
    static Set<String> deniedForTheJudge() {
        return Set.of("people.ssn", "people.salary", "orders.card", GENERATED_FROM_DENIED);
    }

    /**
     * Returns the twins of an engine, built on first use (servers: skipped loudly when unreachable).
     *
     * @param dialect H2, SQLITE, POSTGRESQL, MARIADB or DUCKDB
     * @return the twins
     * @throws Exception if a database cannot be built
     */
    static synchronized Twins twins(Dialect dialect) throws Exception {
        Twins t = TWINS.get(dialect);
        if (t == null) {
            t = build(dialect);
            TWINS.put(dialect, t);
        }
        return t;
    }

    private static Twins build(Dialect dialect) throws Exception {
        // under the build's target directory when there is one (surefire may halt the JVM before shutdown hooks)
        Path target = Path.of("target");
        String prefix = "hostile-scratch-" + dialect.name().toLowerCase(Locale.ROOT);
        Path scratch = Files.isDirectory(target) ? Files.createTempDirectory(target.toAbsolutePath(), prefix)
                : Files.createTempDirectory(prefix);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(scratch), "hostile-scratch-cleanup"));
        Files.writeString(scratch.resolve("seed.txt"), "ZQXF-FILE-SEED", StandardCharsets.UTF_8);
        Files.writeString(scratch.resolve("seed.csv"), "C1\nZQXF-CSV-SEED\n", StandardCharsets.UTF_8);
        switch (dialect) {
            case H2: {
                DataSource[] twins = new DataSource[2];
                DataSource restricted = null;
                for (int w = 0; w < 2; w++) {
                    String url = "jdbc:h2:mem:hostile_twin_" + "ab".charAt(w) + ";DB_CLOSE_DELAY=-1";
                    twins[w] = new UrlDataSource(url, "sa", "");
                    try (Connection c = twins[w].getConnection(); Statement s = c.createStatement()) {
                        create(c, dialect, w);
                        if (w == 0) {
                            s.execute("CREATE USER IF NOT EXISTS " + RESTRICTED_USER + " PASSWORD 'reader'");
                            s.execute("GRANT SELECT ON people, pets, orders TO " + RESTRICTED_USER);
                        }
                    }
                    if (w == 0) {
                        // DB_CLOSE_DELAY is an admin's setting; the database is open already
                        restricted = new UrlDataSource(url.substring(0, url.indexOf(';')), RESTRICTED_USER, "reader");
                    }
                }
                return new Twins(dialect, twins[0], twins[1], restricted, scratch);
            }
            case SQLITE: {
                DataSource[] twins = new DataSource[2];
                for (int w = 0; w < 2; w++) {
                    Path file = scratch.resolve("twin_" + "ab".charAt(w) + ".db");
                    twins[w] = new UrlDataSource("jdbc:sqlite:" + file, null, null);
                    try (Connection c = twins[w].getConnection()) {
                        create(c, dialect, w);
                    }
                }
                return new Twins(dialect, twins[0], twins[1], null, scratch);
            }
            case DUCKDB: {
                // each twin a DuckDB file, opened as a host opens one: read-only and locked down (DuckDbFiles),
                // so that the full path runs on the engine's own lock-down as well as the guard
                DataSource[] twins = new DataSource[2];
                for (int w = 0; w < 2; w++) {
                    Path file = scratch.resolve("twin_" + "ab".charAt(w) + ".duckdb");
                    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file)) {
                        create(c, dialect, w);
                    }
                    twins[w] = DuckDbFiles.builder().database(file).open();
                }
                return new Twins(dialect, twins[0], twins[1], null, scratch);
            }
            case POSTGRESQL:
                return postgres(scratch);
            case MARIADB:
                return mariadb(scratch);
            default:
                throw new IllegalArgumentException("no twins on " + dialect);
        }
    }

    private static Twins postgres(Path scratch) throws SQLException {
        DatabaseServer pg = DatabaseServer.postgres().require();
        try (Connection c = pg.adminDataSource().getConnection(); Statement s = c.createStatement()) {
            for (String db : List.of(DATABASE_PREFIX + "a", DATABASE_PREFIX + "b")) {
                boolean exists;
                try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + db + "'")) {
                    exists = rs.next();
                }
                if (!exists) {
                    try {
                        s.execute("CREATE DATABASE " + db);
                    } catch (SQLException e) {
                        if (!"42P04".equals(e.getSQLState())) { // duplicate_database: another JVM made it
                            throw e;
                        }
                    }
                }
            }
            try {
                s.execute("CREATE ROLE " + RESTRICTED_USER + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT");
            } catch (SQLException e) {
                if (!"42710".equals(e.getSQLState())) {
                    throw e;
                }
            }
        }
        DataSource[] twins = new DataSource[2];
        DataSource restricted = null;
        for (int w = 0; w < 2; w++) {
            String db = DATABASE_PREFIX + "ab".charAt(w);
            String url = withDatabase(pg.url(), db) + (pg.url().contains("?") ? "&" : "?")
                    + "currentSchema=hostile&connectTimeout=5";
            String user = System.getenv().getOrDefault("SQLAGENT_PG_USER", "postgres");
            String password = System.getenv().getOrDefault("SQLAGENT_PG_PASSWORD", "");
            twins[w] = new UrlDataSource(url, user.isBlank() ? "postgres" : user, password);
            try (Connection c = twins[w].getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT pg_advisory_xact_lock(hashtext('sqlagent-hostile-fixture'))");
                    String version = null;
                    try (ResultSet rs = s.executeQuery(
                            "SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = 'hostile'")) {
                        if (rs.next()) {
                            version = rs.getString(1);
                        }
                    }
                    if (!VERSION.equals(version)) {
                        System.err.println("[hostile] building PostgreSQL twin " + db);
                        s.execute("DROP SCHEMA IF EXISTS hostile CASCADE");
                        s.execute("CREATE SCHEMA hostile");
                        s.execute("SET LOCAL search_path TO hostile");
                        hstore(s);
                        create(c, Dialect.POSTGRESQL, w);
                        s.execute("GRANT CONNECT ON DATABASE " + db + " TO " + RESTRICTED_USER);
                        s.execute("GRANT USAGE ON SCHEMA hostile TO " + RESTRICTED_USER);
                        s.execute("GRANT SELECT ON hostile.pets TO " + RESTRICTED_USER);
                        s.execute("GRANT SELECT (id, name, dept, city, born, score) ON hostile.people TO "
                                + RESTRICTED_USER);
                        s.execute("GRANT SELECT (id, person_id, tenant, amount, placed, status) ON hostile.orders TO "
                                + RESTRICTED_USER);
                        s.execute("ALTER TABLE hostile.pets ENABLE ROW LEVEL SECURITY");
                        s.execute("CREATE POLICY pets_owner ON hostile.pets FOR SELECT TO " + RESTRICTED_USER
                                + " USING (owner = '" + PET_OWNER + "')");
                        s.execute("ALTER TABLE hostile.orders ENABLE ROW LEVEL SECURITY");
                        s.execute("CREATE POLICY orders_tenant ON hostile.orders FOR SELECT TO " + RESTRICTED_USER
                                + " USING (tenant = '" + ORDER_TENANT + "')");
                        s.execute("COMMENT ON SCHEMA hostile IS '" + VERSION + "'");
                    }
                    c.commit();
                } catch (SQLException e) {
                    c.rollback();
                    throw e;
                }
            }
            if (w == 0) {
                restricted = new UrlDataSource(url, RESTRICTED_USER, "");
            }
        }
        return new Twins(Dialect.POSTGRESQL, twins[0], twins[1], restricted, scratch);
    }

    /** Installs hstore in the twin's schema where the server has it: a host's database often does. */
    private static void hstore(Statement s) throws SQLException {
        boolean available;
        try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_available_extensions WHERE name = 'hstore'")) {
            available = rs.next();
        }
        if (available) {
            s.execute("CREATE EXTENSION IF NOT EXISTS hstore WITH SCHEMA hostile");
        }
    }

    private static Twins mariadb(Path scratch) throws SQLException {
        DatabaseServer maria = DatabaseServer.mariadb().require();
        String user = System.getenv().getOrDefault("SQLAGENT_MARIADB_USER", "root");
        String password = System.getenv().getOrDefault("SQLAGENT_MARIADB_PASSWORD", "");
        user = user.isBlank() ? "root" : user;
        DataSource[] twins = new DataSource[2];
        DataSource restricted = null;
        try (Connection c = maria.adminDataSource().getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT GET_LOCK('sqlagent-hostile-fixture', 120)")) {
                if (!rs.next() || rs.getInt(1) != 1) {
                    throw new SQLException("could not take the fixture lock within 120 s");
                }
            }
            try {
                s.execute("CREATE USER IF NOT EXISTS '" + RESTRICTED_USER + "'@'%'");
                for (int w = 0; w < 2; w++) {
                    String db = DATABASE_PREFIX + "ab".charAt(w);
                    String version = null;
                    try (ResultSet rs = s.executeQuery("SELECT TABLE_COMMENT FROM information_schema.TABLES "
                            + "WHERE TABLE_SCHEMA = '" + db + "' AND TABLE_NAME = 'secrets'")) {
                        if (rs.next()) {
                            version = rs.getString(1);
                        }
                    }
                    if (!VERSION.equals(version)) {
                        System.err.println("[hostile] building MariaDB twin " + db);
                        s.execute("DROP DATABASE IF EXISTS " + db);
                        s.execute("CREATE DATABASE " + db);
                        s.execute("USE " + db);
                        create(c, Dialect.MARIADB, w);
                        s.execute("GRANT SELECT ON " + db + ".pets TO '" + RESTRICTED_USER + "'@'%'");
                        s.execute("GRANT SELECT (id, name, dept, city, born, score) ON " + db + ".people TO '"
                                + RESTRICTED_USER + "'@'%'");
                        s.execute("GRANT SELECT (id, person_id, tenant, amount, placed, status) ON " + db
                                + ".orders TO '" + RESTRICTED_USER + "'@'%'");
                        s.execute("ALTER TABLE " + db + ".secrets COMMENT = '" + VERSION + "'");
                    }
                    String url = withDatabase(maria.url(), db) + (maria.url().contains("?") ? "&" : "?")
                            + "connectTimeout=5000";
                    twins[w] = new UrlDataSource(url, user, password);
                    if (w == 0) {
                        restricted = new UrlDataSource(url, RESTRICTED_USER, "");
                    }
                }
            } finally {
                try (ResultSet rs = s.executeQuery("SELECT RELEASE_LOCK('sqlagent-hostile-fixture')")) {
                    rs.next();
                }
            }
        }
        return new Twins(Dialect.MARIADB, twins[0], twins[1], restricted, scratch);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }

    /** Replaces the database part of a {@code jdbc:…://host:port/db?…} URL. */
    static String withDatabase(String u, String database) {
        int hosts = u.indexOf("//");
        int slash = u.indexOf('/', hosts + 2);
        int query = u.indexOf('?');
        String base = slash >= 0 && (query < 0 || slash < query) ? u.substring(0, slash)
                : (query >= 0 ? u.substring(0, query) : u);
        return base + "/" + database + (query >= 0 ? u.substring(query) : "");
    }

    /** Creates the schema and the data of one twin on a connection (its default schema or database). */
    static void create(Connection c, Dialect d, int twin) throws SQLException {
        String text = d == Dialect.SQLITE ? "TEXT" : "VARCHAR(60)";
        String generated;
        switch (d) {
            case POSTGRESQL:
                generated = "ssn_key VARCHAR(60) GENERATED ALWAYS AS (lower(ssn)) STORED";
                break;
            case MARIADB:
                generated = "ssn_key VARCHAR(60) AS (lower(ssn)) PERSISTENT";
                break;
            case H2:
                generated = "ssn_key VARCHAR(60) GENERATED ALWAYS AS (LOWER(ssn))";
                break;
            case DUCKDB:
                generated = "ssn_key VARCHAR GENERATED ALWAYS AS (lower(ssn)) VIRTUAL";
                break;
            default:
                generated = "ssn_key TEXT GENERATED ALWAYS AS (lower(ssn)) VIRTUAL";
        }
        try (Statement s = c.createStatement()) {
            for (String t : List.of("people", "pets", "orders", "secrets")) {
                s.execute("DROP TABLE IF EXISTS " + t);
            }
            s.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name " + text + ", dept " + text + ", city " + text
                    + ", born DATE, score INTEGER, ssn " + text + ", salary INTEGER, " + generated + ")");
            s.execute("CREATE INDEX idx_people_dept ON people (dept)");
            s.execute("CREATE INDEX idx_people_ssn ON people (ssn)");
            // an allowed column first, then a denied one: read for dept, it returns rows in salary order
            s.execute("CREATE INDEX idx_people_dept_salary ON people (dept, salary)");
            s.execute("CREATE TABLE pets (id INTEGER PRIMARY KEY, owner " + text + ", kind " + text + ", age INTEGER)");
            s.execute("CREATE INDEX idx_pets_kind ON pets (kind)");
            s.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, person_id INTEGER, tenant " + text
                    + ", amount DECIMAL(10, 2), placed DATE, status " + text + ", card " + text + ")");
            s.execute("CREATE INDEX idx_orders_person ON orders (person_id)");
            // the row filter's column, then the denied card: the filtered read may return rows in card order
            s.execute("CREATE INDEX idx_orders_tenant_card ON orders (tenant, card)");
            s.execute("CREATE TABLE secrets (id INTEGER PRIMARY KEY, code " + text + ", n INTEGER)");
            if (d == Dialect.SQLITE) {
                s.execute("DROP TABLE IF EXISTS notes_fts");
                s.execute("CREATE VIRTUAL TABLE notes_fts USING fts5(title, body)");
                s.execute("INSERT INTO notes_fts (title, body) VALUES ('alpha note', 'the quick brown fox'), "
                        + "('beta note', 'a lazy dog naps'), ('gamma', 'alpha and omega'), ('delta', 'dog days')");
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO people (id, name, dept, city, born, score, ssn, salary) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 1; i <= PEOPLE; i++) {
                ps.setInt(1, i);
                ps.setString(2, NAMES.get(i - 1));
                ps.setString(3, List.of("eng", "ops", "sales").get(i % 3));
                ps.setString(4, CITIES.get(i % CITIES.size()));
                date(ps, 5, String.format("%d-%02d-15", 1975 + i, 1 + i % 12), d);
                ps.setInt(6, (i * 37) % 100);
                ps.setString(7, ssn(twin, i));
                ps.setInt(8, salary(twin, i));
                ps.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO pets (id, owner, kind, age) VALUES (?, ?, ?, ?)")) {
            for (int i = 1; i <= KINDS.size(); i++) {
                pet(ps, i, PET_OWNER, KINDS.get(i - 1), 1 + i);
            }
            int hidden = twin == 0 ? 4 : 7;
            for (int i = 1; i <= hidden; i++) {
                if (twin == 0) {
                    pet(ps, 100 + i, "bob", "ZQXA-PET-" + i, 30 + i);
                } else {
                    pet(ps, 200 + i, "carl", "ZQXB-PET-" + (10 - i) + "-Z", 60 + i);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO orders (id, person_id, tenant, amount, placed, status, card) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 1; i <= 8; i++) {
                order(ps, d, i, 1 + (i * 5) % PEOPLE, ORDER_TENANT, new BigDecimal(10 * i + ".50"),
                        String.format("2024-%02d-%02d", 1 + i, 3 + i), STATUSES.get(i % 3), card(twin, i));
            }
            int hidden = twin == 0 ? 5 : 6;
            for (int i = 1; i <= hidden; i++) {
                if (twin == 0) {
                    order(ps, d, 100 + i, i, "t2", new BigDecimal(9000 + i), "2023-05-0" + i,
                            "ZQXA-ORD-" + i, "ZQXA-CARD-H" + i);
                } else {
                    order(ps, d, 200 + i, 13 - i, "t3", new BigDecimal(7000 - i), "2022-07-0" + i,
                            "ZQXB-ORD-" + (20 - i) + "-Q", "ZQXB-CARD-H" + i + "-Q");
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO secrets (id, code, n) VALUES (?, ?, ?)")) {
            int rows = twin == 0 ? 4 : 6;
            for (int i = 1; i <= rows; i++) {
                ps.setInt(1, i);
                ps.setString(2, twin == 0 ? "ZQXA-TOP-" + i : "ZQXB-TOP-" + (9 - i) + "-W");
                ps.setInt(3, twin == 0 ? 40 + i : 70 - i);
                ps.executeUpdate();
            }
        }
    }

    private static void pet(PreparedStatement ps, int id, String owner, String kind, int age) throws SQLException {
        ps.setInt(1, id);
        ps.setString(2, owner);
        ps.setString(3, kind);
        ps.setInt(4, age);
        ps.executeUpdate();
    }

    /** SQLite keeps dates as ISO text, as its date functions read them; the others as dates. */
    private static void date(PreparedStatement ps, int index, String iso, Dialect d) throws SQLException {
        if (d == Dialect.SQLITE) {
            ps.setString(index, iso);
        } else {
            ps.setObject(index, java.sql.Date.valueOf(iso));
        }
    }

    private static void order(PreparedStatement ps, Dialect d, int id, int person, String tenant,
                              BigDecimal amount, String placed, String status, String card) throws SQLException {
        ps.setInt(1, id);
        ps.setInt(2, person);
        ps.setString(3, tenant);
        if (d == Dialect.SQLITE) {
            ps.setDouble(4, amount.doubleValue());
        } else {
            ps.setBigDecimal(4, amount);
        }
        date(ps, 5, placed, d);
        ps.setString(6, status);
        ps.setString(7, card);
        ps.executeUpdate();
    }

    /** Twin A's values rise with the id; twin B's fall, come in pairs and are longer. */
    static String ssn(int twin, int i) {
        return twin == 0 ? "ZQXA-SSN-" + (1000 + i) : "ZQXB-SSN-" + (9000 - 10 * ((i + 1) / 2)) + "-X";
    }

    static int salary(int twin, int i) {
        return twin == 0 ? 731900000 + 101 * i : 842600000 - 97 * ((i + 1) / 2);
    }

    static String card(int twin, int i) {
        return twin == 0 ? "ZQXA-CARD-" + (5000 + i) : "ZQXB-CARD-" + (7000 - i) + "-YY";
    }

    // ---------------------------------------------------------------- markers

    private static final Pattern HEX_RUN = Pattern.compile("(?i)(?:\\\\x|0x)?([0-9a-f]{8,})");
    private static final Pattern BASE64_RUN = Pattern.compile("[A-Za-z0-9+/]{8,}={0,2}");
    private static final Set<String> NUMBER_MARKERS = numberMarkers();

    private static Set<String> numberMarkers() {
        Set<String> out = new LinkedHashSet<>();
        for (int w = 0; w < 2; w++) {
            for (int i = 1; i <= PEOPLE; i++) {
                out.add(Integer.toString(salary(w, i)));
            }
        }
        return out;
    }

    /**
     * Finds forbidden data in a text, as it is or hex-encoded, base64-encoded or reversed: text markers
     * ({@code ZQX…}, any case) and the salaries.
     *
     * @param text an answer's cell, an error message, a prompt
     * @return what was found, with how it was encoded; empty when nothing
     */
    static List<String> markers(String text) {
        List<String> out = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return out;
        }
        String lower = text.toLowerCase(Locale.ROOT);
        int at = lower.indexOf("zqx");
        if (at >= 0) {
            out.add("marker " + excerpt(text, at));
        }
        int rev = lower.indexOf("xqz");
        if (rev >= 0) {
            out.add("reversed marker " + excerpt(text, rev));
        }
        for (String n : NUMBER_MARKERS) {
            int k = text.indexOf(n);
            if (k >= 0) {
                out.add("denied salary " + n);
                break;
            }
        }
        if (text.length() > 1 << 16) {
            return out; // a bomb's output: decoding it would cost more than the run; the plain search is done
        }
        Matcher hex = HEX_RUN.matcher(text);
        while (hex.find() && out.size() < 4) {
            String h = hex.group(1);
            if (h.length() % 2 == 1) {
                h = h.substring(0, h.length() - 1);
            }
            String decoded = decodeHex(h);
            if (decoded.toLowerCase(Locale.ROOT).contains("zqx")) {
                out.add("hex-encoded marker " + excerpt(h, 0));
            }
        }
        Matcher b64 = BASE64_RUN.matcher(text);
        while (b64.find() && out.size() < 4) {
            for (int shift = 0; shift < 4; shift++) {
                String run = b64.group();
                if (run.length() - shift < 8) {
                    break;
                }
                String decoded = decodeBase64(run.substring(shift));
                if (decoded.toLowerCase(Locale.ROOT).contains("zqx")) {
                    out.add("base64-encoded marker " + excerpt(run, 0));
                    break;
                }
            }
        }
        return out;
    }

    private static String excerpt(String text, int at) {
        int from = Math.max(0, at - 10);
        int to = Math.min(text.length(), at + 30);
        return "'" + text.substring(from, to).replace('\n', ' ') + "'";
    }

    private static String decodeHex(String h) {
        byte[] out = new byte[h.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    private static String decodeBase64(String s) {
        String t = s.replace("=", "");
        t = t.substring(0, t.length() - t.length() % 4);
        try {
            return new String(Base64.getDecoder().decode(t), StandardCharsets.ISO_8859_1);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    /** Reads a file of statements separated by blank lines, skipping lines that start with {@code --}. */
    static List<String> statements(String resource) {
        try (var in = HostileFixture.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("missing " + resource);
            }
            List<String> out = new ArrayList<>();
            StringBuilder block = new StringBuilder();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)) {
                if (line.strip().startsWith("--")) {
                    continue;
                }
                if (line.isBlank()) {
                    if (block.length() > 0) {
                        out.add(block.toString().strip());
                        block.setLength(0);
                    }
                } else {
                    block.append(line).append('\n');
                }
            }
            if (block.length() > 0) {
                out.add(block.toString().strip());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
