package dev.sqlagent.guard;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Lists the functions each engine has, live, from the engine's own catalog: PostgreSQL {@code pg_proc},
 * MariaDB's built-ins (probed), H2's built-ins (probed), SQLite {@code pragma_function_list}. Shared by
 * {@link FunctionCatalogGenerator}, which classifies what it lists, and {@link FunctionCatalogCompletenessTest},
 * which fails when the committed catalog misses a name listed here.
 *
 * <p>A listed name is lower case; a function outside the engine's own function schema is qualified
 * ({@code information_schema._pg_expandarray}).
 */
final class EngineFunctions {

    /**
     * One form of a function as the engine lists it.
     *
     * @param name the catalog key: lower case, qualified when outside the engine's function schema
     * @param kind {@code f} scalar, {@code a} aggregate, {@code w} window
     * @param volatility PostgreSQL {@code i}/{@code s}/{@code v}; SQLite {@code i} deterministic, {@code v} not;
     *                   {@code ?} unknown (MariaDB, H2)
     * @param setReturning whether it returns rows
     * @param support why it is an engine support function, or null
     * @param types argument and result type names (PostgreSQL), or the SQLite flags
     * @param language PostgreSQL's language, or null
     */
    record Form(String name, char kind, char volatility, boolean setReturning, String support, Set<String> types,
                String language) {
    }

    private EngineFunctions() {
    }

    /** @return the names of a listing */
    static Set<String> names(Collection<Form> forms) {
        Set<String> out = new TreeSet<>();
        for (Form f : forms) {
            out.add(f.name());
        }
        return out;
    }

    // ---------------------------------------------------------------- PostgreSQL

    private static final String PG_QUERY = """
            SELECT n.nspname, p.proname, p.prokind, p.provolatile, p.proretset, l.lanname, p.prosecdef,
                   format_type(p.prorettype, NULL) AS ret,
                   ARRAY(SELECT format_type(t, NULL) FROM unnest(p.proargtypes) t) AS args,
                   CASE
                     WHEN EXISTS (SELECT 1 FROM pg_type t WHERE p.oid IN (t.typinput::oid, t.typoutput::oid,
                          t.typreceive::oid, t.typsend::oid, t.typmodin::oid, t.typmodout::oid, t.typanalyze::oid,
                          t.typsubscript::oid)) THEN 'type-io'
                     WHEN EXISTS (SELECT 1 FROM pg_aggregate a WHERE p.oid IN (a.aggtransfn::oid,
                          a.aggfinalfn::oid, a.aggcombinefn::oid, a.aggserialfn::oid, a.aggdeserialfn::oid,
                          a.aggmtransfn::oid, a.aggminvtransfn::oid, a.aggmfinalfn::oid)) THEN 'aggregate-step'
                     WHEN EXISTS (SELECT 1 FROM pg_amproc a WHERE a.amproc::oid = p.oid) THEN 'index-support'
                     WHEN EXISTS (SELECT 1 FROM pg_operator o WHERE p.oid IN (o.oprrest::oid, o.oprjoin::oid))
                          THEN 'selectivity'
                     WHEN EXISTS (SELECT 1 FROM pg_proc q WHERE q.prosupport::oid = p.oid) THEN 'planner-support'
                     WHEN EXISTS (SELECT 1 FROM pg_range r WHERE p.oid IN (r.rngcanonical::oid, r.rngsubdiff::oid))
                          THEN 'range-support'
                     WHEN EXISTS (SELECT 1 FROM pg_conversion c WHERE c.conproc::oid = p.oid) THEN 'conversion'
                     WHEN EXISTS (SELECT 1 FROM pg_language g WHERE p.oid IN (g.lanplcallfoid, g.laninline,
                          g.lanvalidator)) THEN 'language-handler'
                     WHEN EXISTS (SELECT 1 FROM pg_ts_parser s WHERE p.oid IN (s.prsstart::oid, s.prstoken::oid,
                          s.prsend::oid, s.prsheadline::oid, s.prslextype::oid)) THEN 'ts-parser'
                     WHEN EXISTS (SELECT 1 FROM pg_ts_template s WHERE p.oid IN (s.tmplinit::oid,
                          s.tmpllexize::oid)) THEN 'ts-template'
                     WHEN EXISTS (SELECT 1 FROM pg_am m WHERE m.amhandler::oid = p.oid) THEN 'access-method'
                   END AS support
              FROM pg_proc p
              JOIN pg_namespace n ON n.oid = p.pronamespace
              JOIN pg_language l ON l.oid = p.prolang
             WHERE n.nspname IN ('pg_catalog', 'information_schema')
             ORDER BY 1, 2
            """;

    /**
     * @param c a connection to PostgreSQL
     * @return every function of {@code pg_catalog} and {@code information_schema}
     */
    static List<Form> postgres(Connection c) throws SQLException {
        List<Form> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(PG_QUERY)) {
            while (r.next()) {
                String schema = r.getString(1);
                String name = r.getString(2).toLowerCase(Locale.ROOT);
                Set<String> types = new TreeSet<>(Arrays.asList((String[]) r.getArray(9).getArray()));
                types.add("returns " + r.getString(8));
                String support = r.getString(10);
                if (r.getBoolean(7)) {
                    support = "security-definer";
                }
                out.add(new Form(schema.equals("pg_catalog") ? name : schema + "." + name, r.getString(3).charAt(0),
                        r.getString(4).charAt(0), r.getBoolean(5), support, types, r.getString(6)));
            }
        }
        return out;
    }

    /**
     * @param c a connection to PostgreSQL
     * @return PostgreSQL's keywords, lower case, to their category ({@code pg_get_keywords().catcode})
     */
    static Map<String, String> postgresKeywords(Connection c) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT word, catcode FROM pg_get_keywords()")) {
            while (r.next()) {
                out.put(r.getString(1), r.getString(2));
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- MariaDB

    private static final Set<String> MARIADB_HELP_CATEGORIES = Set.of("Bit Functions", "Control flow functions",
            "Date and Time Functions", "Functions", "Functions and Modifiers for Use with GROUP BY",
            "Geographic Features", "Information Functions", "Miscellaneous Functions", "Numeric Functions",
            "String Functions", "Encryption Functions", "Comparison Operators", "Logical operators",
            "Dynamic Column Functions", "Window Functions", "JSON Functions", "Sequences", "Spider Functions");

    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * MariaDB keeps no catalog of its built-in functions: {@code information_schema.SQL_FUNCTIONS} lists those
     * the parser knows as identifiers, {@code mysql.help_topic} documents them (including ones of later
     * versions), {@code information_schema.KEYWORDS} holds those read as syntax. Each candidate is prepared
     * (never run) as a call with zero to four arguments: a name is a function when the server does not answer
     * "FUNCTION … does not exist" (1305/1630) or a syntax error to every form.
     *
     * @param c a connection to MariaDB
     * @return every built-in function the server has
     */
    static List<Form> mariadb(Connection c) throws SQLException {
        Set<String> listed = new TreeSet<>();
        Set<String> candidates = new TreeSet<>();
        try (Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("SELECT FUNCTION FROM information_schema.SQL_FUNCTIONS")) {
                while (r.next()) {
                    listed.add(r.getString(1).toLowerCase(Locale.ROOT));
                }
            }
            try (ResultSet r = s.executeQuery("SELECT t.name, c.name FROM mysql.help_topic t JOIN mysql.help_category c"
                    + " ON c.help_category_id = t.help_category_id")) {
                while (r.next()) {
                    if (!MARIADB_HELP_CATEGORIES.contains(r.getString(2))) {
                        continue;
                    }
                    String topic = r.getString(1).replace("\\_", "_").replace("\\", "");
                    Matcher m = WORD.matcher(topic);
                    while (m.find()) {
                        candidates.add(m.group().toLowerCase(Locale.ROOT));
                    }
                }
            }
            try (ResultSet r = s.executeQuery("SELECT WORD FROM information_schema.KEYWORDS")) {
                while (r.next()) {
                    candidates.add(r.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        candidates.removeAll(listed);
        List<Form> out = new ArrayList<>();
        for (String name : listed) {
            out.add(new Form(name, '?', '?', false, null, Set.of(), null));
        }
        for (String name : candidates) {
            if (mariadbCallable(c, name)) {
                out.add(new Form(name, '?', '?', false, null, Set.of(), null));
            }
        }
        return out;
    }

    /**
     * Turns the MariaDB driver's own logging off before a connection is opened: it logs every failed prepare
     * at WARN, and the probe fails on purpose about two thousand times. Loggers the driver already created
     * in this JVM keep logging.
     */
    static void quietMariaDbDriver() {
        System.setProperty("mariadb.logging.disable", "true");
        org.mariadb.jdbc.util.log.Loggers.init();
    }

    private static boolean mariadbCallable(Connection c, String name) {
        if (!WORD.matcher(name).matches()) {
            return false;
        }
        for (int form = 0; form <= 6; form++) {
            int n = form % 5;
            String sql = "SELECT " + name + "(" + String.join(", ", java.util.Collections.nCopies(n, "NULL")) + ")"
                    + (form > 4 ? " OVER ()" : "");
            try (PreparedStatement p = c.prepareStatement(sql)) {
                p.getMetaData(); // the MariaDB driver prepares on the server here; nothing runs
                return true;
            } catch (SQLException e) {
                int code = e.getErrorCode();
                if (code == 1305 || code == 1630) {
                    return false;
                }
                if (code != 1064 && code != 1582 && code != 1583) {
                    return true;
                }
                if (code == 1582 || code == 1583) {
                    return true; // "incorrect parameter count in the call to native function"
                }
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- H2

    /** H2's compatibility modes: a mode adds functions of its own. */
    static final List<String> H2_MODES = List.of("REGULAR", "MySQL", "MariaDB", "PostgreSQL", "MSSQLServer",
            "Oracle", "DB2", "Derby", "HSQLDB", "LEGACY", "STRICT");

    /**
     * H2 keeps no catalog of its built-in functions ({@code INFORMATION_SCHEMA.ROUTINES} lists user-defined
     * ones only). Candidates are the function topics of the {@code help.csv} shipped in the H2 jar, the
     * names of {@code BuiltinFunctions}, the aggregate and window types, and every upper-case word in the
     * parser's and the compatibility modes' class files; each is compiled ({@code EXPLAIN}, never run) as a
     * call with zero to three arguments in every compatibility mode. A name is a function when H2 does not
     * answer "function not found" (90022) or a syntax error to every form. The documented topics are listed
     * whatever the probe says. User-defined routines of the probed database are added, qualified.
     *
     * @return every built-in function of the H2 on the classpath
     */
    static List<Form> h2() throws SQLException {
        Set<String> documented = h2HelpTopics();
        documented.addAll(h2BuiltinNames());
        Set<String> candidates = new TreeSet<>(documented);
        for (String resource : h2ClassFiles()) {
            candidates.addAll(classWords(resource));
        }
        candidates.addAll(enumNames("org.h2.expression.aggregate.AggregateType"));
        candidates.addAll(enumNames("org.h2.expression.analysis.WindowFunctionType"));
        Set<String> found = new TreeSet<>(documented);
        for (String mode : H2_MODES) {
            try (Connection c = DriverManager.getConnection("jdbc:h2:mem:;MODE=" + mode)) {
                for (String name : candidates) {
                    if (!found.contains(name) && h2Callable(c, name)) {
                        found.add(name);
                    }
                }
            }
        }
        List<Form> out = new ArrayList<>();
        for (String name : found) {
            out.add(new Form(name, '?', '?', false, null, Set.of(), null));
        }
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:");
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT ROUTINE_SCHEMA, ROUTINE_NAME FROM INFORMATION_SCHEMA.ROUTINES")) {
            while (r.next()) {
                out.add(new Form((r.getString(1) + "." + r.getString(2)).toLowerCase(Locale.ROOT), '?', '?', false,
                        null, Set.of(), null));
            }
        }
        return out;
    }

    private static boolean h2Callable(Connection c, String name) {
        if (!WORD.matcher(name).matches()) {
            return false;
        }
        for (int n = 0; n <= 3; n++) {
            String sql = "EXPLAIN SELECT " + name.toUpperCase(Locale.ROOT) + "("
                    + String.join(", ", java.util.Collections.nCopies(n, "NULL")) + ")";
            try (Statement s = c.createStatement()) {
                s.executeQuery(sql).close();
                return true;
            } catch (SQLException e) {
                int code = e.getErrorCode();
                if (code == 90022) { // FUNCTION_NOT_FOUND_1
                    return false;
                }
                if (code == 7001 || code == 90008 || code == 22018 || code == 90021) {
                    return true; // wrong parameter count or value: the function exists
                }
                if (code != 42000 && code != 42001 && code != 42122 && code != 42102 && code != 90054) {
                    return true;
                }
            }
        }
        return false;
    }

    /** @return the names of the function topics of H2's help.csv, lower case */
    static Set<String> h2HelpTopics() {
        Set<String> out = new TreeSet<>();
        for (String[] row : h2Help()) {
            if (row.length < 2 || !row[0].contains("Functions")) {
                continue;
            }
            String topic = row[1].replace(" Function", "").trim();
            if (WORD.matcher(topic).matches()) {
                out.add(topic.toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    private static List<String[]> h2Help() {
        try (InputStream zip = org.h2.Driver.class.getResourceAsStream("/org/h2/util/data.zip")) {
            InputStream in = null;
            ZipInputStream z = null;
            if (zip != null) {
                z = new ZipInputStream(zip);
                for (ZipEntry e = z.getNextEntry(); e != null; e = z.getNextEntry()) {
                    if (e.getName().equals("org/h2/res/help.csv")) {
                        in = z;
                        break;
                    }
                }
            }
            if (in == null) {
                in = org.h2.Driver.class.getResourceAsStream("/org/h2/res/help.csv");
            }
            if (in == null) {
                throw new IllegalStateException("the H2 jar holds no help.csv");
            }
            return csv(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A reader of H2's help.csv: quoted fields, doubled quotes, '#' comment lines. */
    private static List<String[]> csv(Reader reader) throws IOException {
        PushbackReader in = new PushbackReader(reader, 1);
        List<String[]> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        int ch;
        while ((ch = in.read()) >= 0) {
            char c = (char) ch;
            if (quoted) {
                if (c != '"') {
                    field.append(c);
                    continue;
                }
                int next = in.read();
                if (next == '"') {
                    field.append('"');
                } else {
                    quoted = false;
                    if (next >= 0) {
                        in.unread(next);
                    }
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == '#' && row.isEmpty() && field.length() == 0) {
                while ((ch = in.read()) >= 0 && ch != '\n') {
                    // a comment line
                }
            } else if (c == ',') {
                row.add(field.toString());
                field.setLength(0);
            } else if (c == '\n') {
                row.add(field.toString());
                field.setLength(0);
                if (row.size() > 1) {
                    rows.add(row.toArray(new String[0]));
                }
                row = new ArrayList<>();
            } else if (c != '\r') {
                field.append(c);
            }
        }
        return rows;
    }

    @SuppressWarnings("unchecked")
    private static Set<String> h2BuiltinNames() {
        try {
            Field f = Class.forName("org.h2.expression.function.BuiltinFunctions").getDeclaredField("FUNCTIONS");
            f.setAccessible(true);
            Set<String> out = new TreeSet<>();
            for (String s : (Collection<String>) f.get(null)) {
                out.add(s.toLowerCase(Locale.ROOT));
            }
            return out;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read H2's BuiltinFunctions", e);
        }
    }

    private static Set<String> enumNames(String type) {
        Set<String> out = new TreeSet<>();
        try {
            for (Object o : Class.forName(type).getEnumConstants()) {
                out.add(((Enum<?>) o).name().toLowerCase(Locale.ROOT));
            }
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("H2 has no " + type, e);
        }
        return out;
    }

    /** The class files of H2's parser, expressions and compatibility modes. */
    private static List<String> h2ClassFiles() {
        List<String> out = new ArrayList<>();
        try {
            java.net.URL jar = org.h2.Driver.class.getProtectionDomain().getCodeSource().getLocation();
            try (java.util.zip.ZipFile z = new java.util.zip.ZipFile(new java.io.File(jar.toURI()))) {
                for (ZipEntry e : java.util.Collections.list(z.entries())) {
                    String n = e.getName();
                    if (n.endsWith(".class") && (n.startsWith("org/h2/command/Parser")
                            || n.startsWith("org/h2/expression/") || n.startsWith("org/h2/mode/"))) {
                        out.add(n);
                    }
                }
            }
        } catch (IOException | java.net.URISyntaxException e) {
            throw new IllegalStateException("cannot list the H2 jar", e);
        }
        return out;
    }

    /** The upper-case words among a class file's string constants, lower case. */
    static Set<String> classWords(String resource) {
        Set<String> out = new TreeSet<>();
        try (InputStream in = org.h2.Driver.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                return out;
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            DataInputStream d = new DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()));
            d.readInt();
            d.readUnsignedShort();
            d.readUnsignedShort();
            int count = d.readUnsignedShort();
            for (int i = 1; i < count; i++) {
                int tag = d.readUnsignedByte();
                switch (tag) {
                    case 1 -> {
                        String s = d.readUTF();
                        if (s.matches("[A-Z][A-Z0-9_]*")) {
                            out.add(s.toLowerCase(Locale.ROOT));
                        }
                    }
                    case 3, 4 -> d.readInt();
                    case 5, 6 -> {
                        d.readLong();
                        i++;
                    }
                    case 7, 8, 16, 19, 20 -> d.readUnsignedShort();
                    case 9, 10, 11, 12, 17, 18 -> d.readInt();
                    case 15 -> {
                        d.readUnsignedByte();
                        d.readUnsignedShort();
                    }
                    default -> throw new IllegalStateException("constant tag " + tag + " in " + resource);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    // ---------------------------------------------------------------- SQLite

    /**
     * @param c a connection to SQLite
     * @return every function {@code pragma_function_list} lists; {@code types} holds the flags in hex
     */
    static List<Form> sqlite(Connection c) throws SQLException {
        List<Form> out = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT name, type, flags FROM pragma_function_list")) {
            while (r.next()) {
                String type = r.getString(2);
                int flags = r.getInt(3);
                char kind = type.equals("a") ? 'a' : type.equals("w") ? 'w' : 'f';
                boolean deterministic = (flags & 0x800) != 0;
                out.add(new Form(r.getString(1).toLowerCase(Locale.ROOT), kind, deterministic ? 'i' : 'v', false,
                        (flags & 0x80000) != 0 ? "direct-only" : null, Set.of(Integer.toHexString(flags)), null));
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- DuckDB

    /**
     * @param c a connection to DuckDB
     * @return every function {@code duckdb_functions()} lists, built-ins and extensions loaded by default;
     *         {@code kind} {@code f} scalar or macro, {@code a} aggregate, {@code w} window, {@code t} table
     *         function or table macro, {@code p} pragma; {@code volatility} {@code i} consistent, {@code s}
     *         consistent within the query, {@code v} volatile or with side effects, {@code ?} not said (macros,
     *         table functions); {@code support} the schema when not {@code main}
     */
    static List<Form> duckdb(Connection c) throws SQLException {
        List<Form> out = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT DISTINCT function_name, function_type, stability, has_side_effects,"
                     + " schema_name FROM duckdb_functions() WHERE database_name = 'system'")) {
            while (r.next()) {
                String type = r.getString(2);
                char kind = switch (type) {
                    case "aggregate" -> 'a';
                    case "window" -> 'w';
                    case "table", "table_macro" -> 't';
                    case "pragma" -> 'p';
                    default -> 'f';
                };
                String stability = r.getString(3);
                char volatility = r.getBoolean(4) || "VOLATILE".equals(stability) ? 'v'
                        : "CONSISTENT".equals(stability) ? 'i' : "CONSISTENT_WITHIN_QUERY".equals(stability) ? 's' : '?';
                String schema = r.getString(5);
                out.add(new Form(r.getString(1).toLowerCase(Locale.ROOT), kind, volatility, kind == 't',
                        "main".equals(schema) ? null : schema, Set.of(type), null));
            }
        }
        return out;
    }
}
