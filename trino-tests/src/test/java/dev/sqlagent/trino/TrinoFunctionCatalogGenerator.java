package dev.sqlagent.trino;

import dev.sqlagent.guard.FunctionClass;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Generates Trino's classified function catalog, {@code core/src/main/resources/dev/sqlagent/engine/trino/functions.tsv}
 * (the format of {@code dev/sqlagent/guard/functions/*.tsv}: {@code name, class, reason}), from the cluster's
 * {@code SHOW FUNCTIONS}. Run it with {@code -Dsqlagent.trino.writeFunctions=true} on
 * {@link TrinoFunctionCatalogTest}; without it that test fails when the cluster has a function the committed
 * catalog lacks or classifies otherwise.
 *
 * <p>Classification, per form, first match wins: the reviewed lists below (by name); a name starting with
 * {@code $} is {@link FunctionClass#INTERNAL}; a table function not reviewed is {@link FunctionClass#READS_TABLES}
 * (it may read anything); an aggregate is {@link FunctionClass#SAFE_AGGREGATE}, a window function
 * {@link FunctionClass#SAFE_WINDOW}; a deterministic scalar is {@link FunctionClass#SAFE_SCALAR}, with the reason
 * {@code lambda} when one of its forms takes a function argument ({@code transform}, {@code filter},
 * {@code reduce}: the column a lambda reads is in the plan's scan, see {@code TrinoPlanReader}). A
 * non-deterministic scalar not reviewed fails the generator, naming it. A name with several classes gets the
 * most restrictive.
 */
final class TrinoFunctionCatalogGenerator {

    /** Where the catalog is, from the trino-tests module (Surefire's working directory). */
    static final String FILE = "../core/src/main/resources/dev/sqlagent/engine/trino/functions.tsv";

    /** One classified name. */
    record Entry(String name, FunctionClass functionClass, String reason) {
    }

    private static final Map<String, Entry> REVIEWED = new HashMap<>();

    private static void put(FunctionClass c, String reason, String names) {
        for (String n : names.trim().split("\\s+")) {
            REVIEWED.put(n, new Entry(n, c, reason));
        }
    }

    static {
        // who or where the session is
        put(FunctionClass.READS_SESSION, "session", "current_user current_catalog current_schema current_path "
                + "current_groups current_timezone version");
        // the clock and random sources: their result does not depend on the arguments only, but reads no data
        put(FunctionClass.SAFE_SCALAR, "nondeterministic", "random rand uuid shuffle now current_date "
                + "current_time current_timestamp localtime localtimestamp");
        // results far larger than their arguments: the guard bounds them from constant arguments
        put(FunctionClass.EXPANDS_RESOURCES, "expands", "repeat lpad rpad sequence combinations ngrams "
                + "array_repeat");
        // table functions that read only the rows they are given
        put(FunctionClass.SAFE_SCALAR, "table-function", "exclude_columns");
    }

    private TrinoFunctionCatalogGenerator() {
    }

    /**
     * Reads and classifies the cluster's functions.
     *
     * @param c a connection to the cluster
     * @return the catalog's lines, sorted by name
     * @throws SQLException when the cluster cannot be read
     * @throws IllegalStateException naming every function no rule classifies
     */
    static Map<String, Entry> classify(Connection c) throws SQLException {
        Map<String, Entry> out = new TreeMap<>();
        Set<String> unreviewed = new TreeSet<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW FUNCTIONS")) {
            while (rs.next()) {
                String name = rs.getString("Function").toLowerCase(Locale.ROOT);
                String args = rs.getString("Argument Types").toLowerCase(Locale.ROOT);
                String type = rs.getString("Function Type").toLowerCase(Locale.ROOT);
                boolean deterministic = rs.getBoolean("Deterministic");
                Entry e = classify(name, type, args, deterministic);
                if (e == null) {
                    unreviewed.add(name + "(" + args + ") " + type);
                    continue;
                }
                out.merge(name, e, TrinoFunctionCatalogGenerator::stricter);
            }
        }
        if (!unreviewed.isEmpty()) {
            throw new IllegalStateException("Trino functions no rule classifies; review them into a list: "
                    + unreviewed);
        }
        return out;
    }

    private static Entry classify(String name, String type, String args, boolean deterministic) {
        Entry reviewed = REVIEWED.get(name);
        if (reviewed != null) {
            return reviewed;
        }
        if (name.startsWith("$")) {
            return new Entry(name, FunctionClass.INTERNAL, "internal");
        }
        boolean lambda = args.contains("function(");
        switch (type) {
            case "table":
                return new Entry(name, FunctionClass.READS_TABLES, "table-function");
            case "aggregate":
                return new Entry(name, FunctionClass.SAFE_AGGREGATE, lambda ? "lambda" : "aggregate");
            case "window":
                return new Entry(name, FunctionClass.SAFE_WINDOW, "window");
            case "scalar":
                return deterministic ? new Entry(name, FunctionClass.SAFE_SCALAR, lambda ? "lambda" : "deterministic")
                        : null;
            default:
                return null;
        }
    }

    /** Unsafe classes are stricter than safe ones; among safe, a non-scalar class (it changes evaluation) wins. */
    private static Entry stricter(Entry a, Entry b) {
        if (a.functionClass() != b.functionClass()) {
            if (a.functionClass().safe() != b.functionClass().safe()) {
                return a.functionClass().safe() ? b : a;
            }
            return a.functionClass().ordinal() >= b.functionClass().ordinal() ? a : b;
        }
        return a.reason().equals("lambda") ? a : b;
    }

    /**
     * {@return the catalog's text}
     *
     * @param version the cluster's version, for the header
     * @param entries the classified names
     */
    static String text(String version, Map<String, Entry> entries) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Generated by dev.sqlagent.trino.TrinoFunctionCatalogGenerator (trino-tests test sources) from "
                + "Trino ").append(version)
                .append(".\n# Do not edit by hand: change the generator's reviewed lists and run it again.\n")
                .append("# reason 'lambda': takes a function argument (transform, filter, reduce ...)\n")
                .append("# name\tclass\treason\n");
        for (Entry e : entries.values()) {
            sb.append(e.name()).append('\t').append(e.functionClass()).append('\t').append(e.reason()).append('\n');
        }
        return sb.toString();
    }
}
