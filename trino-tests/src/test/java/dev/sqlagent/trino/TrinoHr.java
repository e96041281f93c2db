package dev.sqlagent.trino;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hostile fixture's twin tables (core's {@code HostileFixture}) in Trino's {@code memory} catalog: schema
 * {@code memory.hr} is twin A, {@code memory.hr_b} twin B. Same schema and allowed data; every forbidden value
 * ({@code people.ssn}, {@code people.salary}, {@code orders.card}, the rows of {@code pets} not owned by
 * {@code alice}, the rows of {@code orders} not of tenant {@code t1}, all of {@code secrets}) is a marker (text
 * starting {@code ZQX}, salaries of nine digits) that differs between the twins. The memory connector has no
 * generated columns and no indexes, so {@code people.ssn_key} and the index-order leaks of the other engines
 * are not reproduced here.
 */
final class TrinoHr {

    /** Twin A's schema, the one the corpora run in. */
    static final String SCHEMA = "hr";
    /** Twin B's schema. */
    static final String SCHEMA_B = "hr_b";

    static final String PET_OWNER = "alice";
    static final String ORDER_TENANT = "t1";

    private static final int PEOPLE = 12;
    private static final List<String> NAMES = List.of("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy",
            "jon", "kai", "lou");
    private static final List<String> CITIES = List.of("Oslo", "Lima", "Pune", "Kyiv");
    private static final List<String> KINDS = List.of("cat", "dog", "fish", "cat", "bird", "dog");
    private static final List<String> STATUSES = List.of("open", "shipped", "closed");

    private static boolean loaded;

    private TrinoHr() {
    }

    /** Creates both twins once per JVM (and again after {@link #reload}). */
    static synchronized void ensure() throws SQLException {
        if (!loaded) {
            reload();
        }
    }

    /** Drops and recreates both twins: after a corpus whose writes changed them. */
    static synchronized void reload() throws SQLException {
        try (Connection c = TrinoFixture.admin("memory", "default"); Statement s = c.createStatement()) {
            load(s, SCHEMA, 0);
            load(s, SCHEMA_B, 1);
        }
        loaded = true;
    }

    private static void load(Statement s, String schema, int twin) throws SQLException {
        List<String> drops = new ArrayList<>();
        try (var rs = s.executeQuery("SELECT table_name, table_type FROM memory.information_schema.tables"
                + " WHERE table_schema = '" + schema + "'")) {
            while (rs.next()) {
                drops.add((rs.getString(2).equals("VIEW") ? "DROP VIEW memory." : "DROP TABLE memory.") + schema
                        + ".\"" + rs.getString(1) + "\"");
            }
        }
        for (String drop : drops) {
            s.execute(drop);
        }
        s.execute("CREATE SCHEMA IF NOT EXISTS memory." + schema);
        String p = "memory." + schema + ".";
        s.execute("CREATE TABLE " + p + "people (id integer, name varchar, dept varchar, city varchar, born date,"
                + " score integer, ssn varchar, salary integer, tags array(varchar), attrs map(varchar, varchar))");
        s.execute("CREATE TABLE " + p + "pets (id integer, owner varchar, kind varchar, age integer)");
        s.execute("CREATE TABLE " + p + "orders (id integer, person_id integer, tenant varchar, amount decimal(10, 2),"
                + " placed date, status varchar, card varchar)");
        s.execute("CREATE TABLE " + p + "secrets (id integer, code varchar, n integer)");
        List<String> rows = new ArrayList<>();
        for (int i = 1; i <= PEOPLE; i++) {
            String dept = List.of("eng", "ops", "sales").get(i % 3);
            rows.add(String.format(Locale.ROOT, "(%d, '%s', '%s', '%s', DATE '%d-%02d-15', %d, '%s', %d,"
                            + " ARRAY['%s', 'n%d'], MAP(ARRAY['team', 'floor'], ARRAY['%s', '%d']))",
                    i, NAMES.get(i - 1), dept, CITIES.get(i % CITIES.size()), 1975 + i, 1 + i % 12, (i * 37) % 100,
                    ssn(twin, i), salary(twin, i), dept, i % 4, dept, i % 5));
        }
        s.execute("INSERT INTO " + p + "people VALUES " + String.join(", ", rows));
        rows.clear();
        for (int i = 1; i <= KINDS.size(); i++) {
            rows.add(String.format(Locale.ROOT, "(%d, '%s', '%s', %d)", i, PET_OWNER, KINDS.get(i - 1), 1 + i));
        }
        int hiddenPets = twin == 0 ? 4 : 7;
        for (int i = 1; i <= hiddenPets; i++) {
            rows.add(twin == 0 ? String.format(Locale.ROOT, "(%d, 'bob', 'ZQXA-PET-%d', %d)", 100 + i, i, 30 + i)
                    : String.format(Locale.ROOT, "(%d, 'carl', 'ZQXB-PET-%d-Z', %d)", 200 + i, 10 - i, 60 + i));
        }
        s.execute("INSERT INTO " + p + "pets VALUES " + String.join(", ", rows));
        rows.clear();
        for (int i = 1; i <= 8; i++) {
            rows.add(String.format(Locale.ROOT, "(%d, %d, '%s', DECIMAL '%d.50', DATE '2024-%02d-%02d', '%s', '%s')",
                    i, 1 + (i * 5) % PEOPLE, ORDER_TENANT, 10 * i, 1 + i, 3 + i, STATUSES.get(i % 3), card(twin, i)));
        }
        int hiddenOrders = twin == 0 ? 5 : 6;
        for (int i = 1; i <= hiddenOrders; i++) {
            rows.add(twin == 0
                    ? String.format(Locale.ROOT, "(%d, %d, 't2', DECIMAL '%d', DATE '2023-05-0%d', 'ZQXA-ORD-%d',"
                            + " 'ZQXA-CARD-H%d')", 100 + i, i, 9000 + i, i, i, i)
                    : String.format(Locale.ROOT, "(%d, %d, 't3', DECIMAL '%d', DATE '2022-07-0%d', 'ZQXB-ORD-%d-Q',"
                            + " 'ZQXB-CARD-H%d-Q')", 200 + i, 13 - i, 7000 - i, i, 20 - i, i));
        }
        s.execute("INSERT INTO " + p + "orders VALUES " + String.join(", ", rows));
        rows.clear();
        int secrets = twin == 0 ? 4 : 6;
        for (int i = 1; i <= secrets; i++) {
            rows.add(String.format(Locale.ROOT, "(%d, '%s', %d)", i,
                    twin == 0 ? "ZQXA-TOP-" + i : "ZQXB-TOP-" + (9 - i) + "-W", twin == 0 ? 40 + i : 70 - i));
        }
        s.execute("INSERT INTO " + p + "secrets VALUES " + String.join(", ", rows));
    }

    /** Twin A's values rise with the id; twin B's fall, come in pairs and are longer (as in HostileFixture). */
    static String ssn(int twin, int i) {
        return twin == 0 ? "ZQXA-SSN-" + (1000 + i) : "ZQXB-SSN-" + (9000 - 10 * ((i + 1) / 2)) + "-X";
    }

    static int salary(int twin, int i) {
        return twin == 0 ? 731900000 + 101 * i : 842600000 - 97 * ((i + 1) / 2);
    }

    static String card(int twin, int i) {
        return twin == 0 ? "ZQXA-CARD-" + (5000 + i) : "ZQXB-CARD-" + (7000 - i) + "-YY";
    }

    private static final Pattern MARKER = Pattern.compile("(?i)zqx[ab]-[a-z0-9-]+");
    private static final Pattern NINE = Pattern.compile(
            "(?<![0-9])(73190[0-9]{4}|84259[0-9]{4}|84260[0-9]{4})(?![0-9])");

    /**
     * @param text a result rendered as text
     * @return the forbidden values it shows as they are (text markers, salaries), empty when none
     */
    static List<String> markers(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = MARKER.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        Matcher n = NINE.matcher(text);
        while (n.find()) {
            int v = Integer.parseInt(n.group());
            for (int twin = 0; twin < 2; twin++) {
                for (int i = 1; i <= PEOPLE; i++) {
                    if (salary(twin, i) == v) {
                        out.add(n.group());
                    }
                }
            }
        }
        return out;
    }
}
