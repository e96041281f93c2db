package dev.sqlagent.examples.cli;

import dev.sqlagent.guard.FunctionClass;
import dev.sqlagent.guard.FunctionPolicy;
import dev.sqlagent.guard.GuardPolicy;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The guard policy's options, shared by the commands that build a policy ({@code guard}, {@code ask}):
 * one parser, one spelling of each option.
 */
final class PolicyOptions {

    @Option(names = "--allow-tables", split = ",", paramLabel = "TABLE",
            description = "Tables that may be read (comma separated, optionally schema-qualified); each must be a"
                    + " table of the database, or the command stops naming the nearest ones.")
    List<String> allowTables = new ArrayList<>();

    @Option(names = {"--deny-columns", "--deny-column"}, split = ",", paramLabel = "TABLE.COLUMN",
            description = "Columns that may never be read, as table.column (comma separated); each must be a"
                    + " column of the database (a misspelt denial would leave the real column open), or the command"
                    + " stops naming the nearest ones.")
    List<String> denyColumns = new ArrayList<>();

    @Option(names = "--allow-select-star", description = "Allow SELECT * and t.*.")
    boolean allowSelectStar;

    @Option(names = "--max-rows", defaultValue = "1000", paramLabel = "N", description = "Row cap (default ${DEFAULT-VALUE}).")
    int maxRows;

    @Option(names = "--allow-functions", split = ",", paramLabel = "FUNCTION",
            description = "Functions allowed on top of the dialect's standard list (comma separated); a function "
                    + "of an unsafe class is refused here: see --allow-unsafe-functions.")
    List<String> allowFunctions = new ArrayList<>();

    @Option(names = "--allow-unsafe-functions", paramLabel = "CLASS=FUNCTION[,FUNCTION]",
            description = "Functions of an unsafe class, the class confirmed by name (e.g. READS_SESSION=current_user). "
                    + "Repeatable.")
    List<String> allowUnsafeFunctions = new ArrayList<>();

    @Option(names = "--only-functions", split = ",", paramLabel = "FUNCTION",
            description = "Allow only these functions, without the standard list (comma separated).")
    List<String> onlyFunctions = new ArrayList<>();

    @Option(names = "--deny-functions", split = ",", paramLabel = "FUNCTION",
            description = "Denylist mode: every safe function of the engine's catalog except these is allowed.")
    List<String> denyFunctions = new ArrayList<>();

    @Option(names = "--row-filter", paramLabel = "TABLE.COLUMN=VALUE",
            description = "A mandatory row filter: every read of TABLE sees only rows where COLUMN = VALUE (bound, "
                    + "never pasted; an integer VALUE is bound as a number, 'quoted' as text). Repeatable.")
    List<String> rowFilters = new ArrayList<>();

    /**
     * A policy builder holding every option but the tables, which the caller adds.
     *
     * @return the builder
     * @throws IllegalArgumentException naming the bad option
     */
    GuardPolicy.Builder builder() {
        GuardPolicy.Builder b = GuardPolicy.builder().allowSelectStar(allowSelectStar).maxRows(maxRows)
                .functionPolicy(functionPolicy());
        denyColumns(b, denyColumns);
        for (String rf : rowFilters) {
            int eq = rf.indexOf('=');
            int dot = eq < 0 ? -1 : rf.lastIndexOf('.', eq);
            if (eq < 0 || dot <= 0 || dot == eq - 1) {
                throw new IllegalArgumentException("--row-filter expects table.column=value but was '" + rf + "'");
            }
            b.rowFilter(rf.substring(0, dot), rf.substring(dot + 1, eq), value(rf.substring(eq + 1)));
        }
        return b;
    }

    /**
     * Adds {@code table.column} denials to a builder.
     *
     * @throws IllegalArgumentException when one is not {@code table.column}
     */
    static void denyColumns(GuardPolicy.Builder b, List<String> denyColumns) {
        for (String dc : denyColumns) {
            int dot = dc.lastIndexOf('.');
            if (dot <= 0 || dot == dc.length() - 1) {
                throw new IllegalArgumentException("--deny-columns expects table.column but was '" + dc + "'");
            }
            b.denyColumn(dc.substring(0, dot), dc.substring(dot + 1));
        }
    }

    /** A row filter's value: an integer as a number, {@code 'text'} without its quotes, anything else as text. */
    static Object value(String v) {
        if (v.matches("-?\\d{1,18}")) {
            return Long.parseLong(v);
        }
        if (v.length() >= 2 && v.startsWith("'") && v.endsWith("'")) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }

    /** The function policy the flags describe; at most one of --only-functions and --deny-functions. */
    private FunctionPolicy functionPolicy() {
        if (!onlyFunctions.isEmpty() && !denyFunctions.isEmpty()) {
            throw new IllegalArgumentException("give --only-functions or --deny-functions, not both");
        }
        FunctionPolicy f = !onlyFunctions.isEmpty() ? FunctionPolicy.allowOnly(onlyFunctions.toArray(new String[0]))
                : !denyFunctions.isEmpty() ? FunctionPolicy.denying(denyFunctions.toArray(new String[0]))
                : FunctionPolicy.standard();
        f = allowFunctions.isEmpty() ? f : f.allowAlso(allowFunctions.toArray(new String[0]));
        for (String spec : allowUnsafeFunctions) {
            int eq = spec.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--allow-unsafe-functions wants CLASS=FUNCTION[,FUNCTION] but was "
                        + spec);
            }
            FunctionClass cls;
            try {
                cls = FunctionClass.valueOf(spec.substring(0, eq).trim().toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--allow-unsafe-functions: no function class "
                        + spec.substring(0, eq) + "; one of " + java.util.Arrays.toString(FunctionClass.values()), e);
            }
            f = f.allowUnsafe(cls, spec.substring(eq + 1).split(","));
        }
        return f;
    }
}
