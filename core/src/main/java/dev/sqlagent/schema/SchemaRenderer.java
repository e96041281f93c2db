package dev.sqlagent.schema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Renders a catalog, or a selection of it, as text for a prompt, never above a budget in estimated
 * tokens.
 *
 * <p>Each column shows its type, its description (the host's, else the database's remark), the terms
 * that name it, the meanings of its coded values and sample values. Primary and foreign keys are shown,
 * declared ones and (as such) inferred ones between rendered tables.
 *
 * <p>When the whole does not fit, the least needed parts are cut first, one step at a time, until it
 * fits: sample values, then column descriptions and terms, then table descriptions, then coded-value
 * meanings, then non-key columns (last columns first), then whole tables. Each kind is cut from the least
 * connected table first (fewest join edges to the other rendered tables, later in the catalog first).
 * Key columns go only with their table. Everything cut is listed in
 * {@link RenderedSchema#omitted()}. Immutable and thread-safe.
 */
public final class SchemaRenderer {

    /** The text format. */
    public enum Format {
        /** Compact {@code CREATE TABLE} statements, one line per table, notes in comments. */
        DDL,
        /** A Markdown section per table with a table of its columns. */
        MARKDOWN
    }

    private final Format format;
    private final TokenEstimator estimator;
    private final boolean inferredJoins;

    private SchemaRenderer(Builder b) {
        this.format = b.format;
        this.estimator = b.estimator;
        this.inferredJoins = b.inferredJoins;
    }

    /** {@return a builder with the defaults: DDL, heuristic estimator, inferred joins shown} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a DDL renderer with the heuristic estimator} */
    public static SchemaRenderer ddl() {
        return builder().build();
    }

    /** {@return a Markdown renderer with the heuristic estimator} */
    public static SchemaRenderer markdown() {
        return builder().format(Format.MARKDOWN).build();
    }

    /** {@return a builder holding this renderer's settings} */
    public Builder toBuilder() {
        return new Builder().format(format).estimator(estimator).inferredJoins(inferredJoins);
    }

    /** {@return the estimator this renderer counts with} */
    public TokenEstimator estimator() {
        return estimator;
    }

    /**
     * Renders every table of the catalog.
     *
     * @param catalog the catalog
     * @param budgetTokens the most estimated tokens the text may have, &gt;= 0
     * @return the text, its estimate and what was cut
     * @throws IllegalArgumentException when the budget is negative
     */
    public RenderedSchema render(SchemaCatalog catalog, int budgetTokens) {
        Map<String, Set<String>> all = new LinkedHashMap<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            Set<String> cols = new LinkedHashSet<>();
            for (SchemaCatalog.Column c : t.columns()) {
                cols.add(c.name());
            }
            all.put(t.name(), cols);
        }
        return render(catalog, all, budgetTokens);
    }

    /**
     * Renders a selection: the given tables with the given columns plus their key columns (primary key,
     * and the columns that join them to other selected tables).
     *
     * @param catalog the catalog
     * @param selection table to columns, any case
     * @param budgetTokens the most estimated tokens the text may have, &gt;= 0
     * @return the text, its estimate and what was cut
     * @throws IllegalArgumentException when the budget is negative, or the selection names a table or
     *     column the catalog lacks (check names first with {@link SchemaCompletion#check})
     */
    public RenderedSchema render(SchemaCatalog catalog, Map<String, ? extends Collection<String>> selection, int budgetTokens) {
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(selection, "selection");
        if (budgetTokens < 0) {
            throw new IllegalArgumentException("budgetTokens must be >= 0 but was " + budgetTokens);
        }
        Plan plan = Plan.of(catalog, selection, inferredJoins);
        List<String> omitted = new ArrayList<>();
        List<TablePlan> order = plan.leastNeededFirst();
        int[] tokens = new int[plan.tables.size()];
        int total = 0;
        for (int i = 0; i < plan.tables.size(); i++) {
            tokens[i] = estimate(plan, i);
            total += tokens[i];
        }
        for (Cut cut : cuts(order)) {
            if (total <= budgetTokens) {
                break;
            }
            int i = plan.tables.indexOf(cut.table);
            if (!cut.apply()) {
                continue;
            }
            omitted.add(cut.what);
            if (cut.table.dropped) {
                // foreign keys pointing at it disappear from the others
                total = 0;
                for (int j = 0; j < plan.tables.size(); j++) {
                    tokens[j] = estimate(plan, j);
                    total += tokens[j];
                }
            } else {
                total += estimate(plan, i) - tokens[i];
                tokens[i] = estimate(plan, i);
            }
        }
        String text = text(plan);
        int estimate = count(text);
        // the sum of parts is a guide; the whole text is what must fit (an estimator need not be additive)
        for (TablePlan t : order) {
            if (estimate <= budgetTokens) {
                break;
            }
            if (!t.dropped) {
                t.dropped = true;
                omitted.add("table " + t.table.name());
                text = text(plan);
                estimate = count(text);
            }
        }
        return new RenderedSchema(text, estimate, omitted);
    }

    private int estimate(Plan plan, int i) {
        TablePlan t = plan.tables.get(i);
        return t.dropped ? 0 : count(renderTable(plan, t));
    }

    private int count(String text) {
        int n = estimator.estimate(text);
        if (n < 0) {
            throw new IllegalStateException("token estimator " + estimator + " returned " + n + " (must be >= 0)");
        }
        return n;
    }

    private String text(Plan plan) {
        StringBuilder sb = new StringBuilder();
        for (TablePlan t : plan.tables) {
            if (!t.dropped) {
                sb.append(renderTable(plan, t));
            }
        }
        return sb.toString();
    }

    private String renderTable(Plan plan, TablePlan t) {
        return format == Format.DDL ? ddl(plan, t) : markdown(plan, t);
    }

    private static List<Cut> cuts(List<TablePlan> order) {
        List<Cut> cuts = new ArrayList<>();
        for (TablePlan t : order) {
            cuts.add(new Cut(t, "sample values of " + t.table.name(), () -> t.clearColumns(Note.SAMPLES)));
        }
        for (TablePlan t : order) {
            cuts.add(new Cut(t, "column descriptions of " + t.table.name(), () -> t.clearColumns(Note.DESCRIPTION)));
        }
        for (TablePlan t : order) {
            cuts.add(new Cut(t, "description of table " + t.table.name(), t::clearDescription));
        }
        for (TablePlan t : order) {
            cuts.add(new Cut(t, "coded values of " + t.table.name(), () -> t.clearColumns(Note.CODES)));
        }
        for (TablePlan t : order) {
            for (int k = t.columns.size() - 1; k >= 0; k--) {
                ColumnPlan c = t.columns.get(k);
                if (!c.key) {
                    cuts.add(new Cut(t, "column " + t.table.name() + "." + c.column.name(), () -> {
                        boolean had = c.shown;
                        c.shown = false;
                        return had;
                    }));
                }
            }
        }
        for (TablePlan t : order) {
            cuts.add(new Cut(t, "table " + t.table.name(), () -> {
                boolean had = !t.dropped;
                t.dropped = true;
                return had;
            }));
        }
        return cuts;
    }

    private String ddl(Plan plan, TablePlan t) {
        StringBuilder sb = new StringBuilder();
        String description = t.descriptionText();
        if (!description.isEmpty()) {
            sb.append("-- ").append(oneLine(description)).append('\n');
        }
        sb.append("CREATE TABLE ").append(t.table.name()).append(" (");
        List<String> parts = new ArrayList<>();
        for (ColumnPlan c : t.columns) {
            if (!c.shown) {
                continue;
            }
            String p = c.column.name() + (c.column.type().isEmpty() ? "" : " " + c.column.type());
            String notes = c.notes(", ");
            if (!notes.isEmpty()) {
                p += " /* " + oneLine(notes).replace("*/", "* /") + " */";
            }
            parts.add(p);
        }
        if (!t.table.primaryKey().isEmpty()) {
            parts.add("PRIMARY KEY (" + String.join(", ", t.table.primaryKey()) + ")");
        }
        for (JoinGraph.Edge e : plan.outgoing(t)) {
            parts.add("FOREIGN KEY (" + e.fromColumn() + ") REFERENCES " + e.toTable() + " (" + e.toColumn() + ")"
                    + (e.declared() ? "" : " /* inferred */"));
        }
        sb.append(String.join(", ", parts)).append(");\n");
        return sb.toString();
    }

    private String markdown(Plan plan, TablePlan t) {
        StringBuilder sb = new StringBuilder();
        sb.append("### ").append(t.table.name()).append('\n');
        String description = t.descriptionText();
        if (!description.isEmpty()) {
            sb.append(oneLine(description)).append('\n');
        }
        sb.append("| column | type | notes |\n|---|---|---|\n");
        Map<String, List<String>> keyNotes = new LinkedHashMap<>();
        for (String pk : t.table.primaryKey()) {
            keyNotes.computeIfAbsent(pk.toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add("primary key");
        }
        for (JoinGraph.Edge e : plan.outgoing(t)) {
            keyNotes.computeIfAbsent(e.fromColumn().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add("→ " + e.toTable() + "." + e.toColumn() + (e.declared() ? "" : " (inferred)"));
        }
        for (ColumnPlan c : t.columns) {
            if (!c.shown) {
                continue;
            }
            List<String> notes = new ArrayList<>(keyNotes.getOrDefault(c.column.name().toLowerCase(Locale.ROOT), List.of()));
            String own = c.notes("; ");
            if (!own.isEmpty()) {
                notes.add(own);
            }
            sb.append("| ").append(cell(c.column.name())).append(" | ").append(cell(c.column.type())).append(" | ")
                    .append(cell(String.join("; ", notes))).append(" |\n");
        }
        sb.append('\n');
        return sb.toString();
    }

    private static String cell(String s) {
        return oneLine(s).replace("|", "\\|");
    }

    private static String oneLine(String s) {
        return s.replace('\r', ' ').replace('\n', ' ');
    }

    /** One step of cutting. */
    private static final class Cut {
        final TablePlan table;
        final String what;
        final java.util.function.BooleanSupplier action;

        Cut(TablePlan table, String what, java.util.function.BooleanSupplier action) {
            this.table = table;
            this.what = what;
            this.action = action;
        }

        /** {@return whether it removed anything} */
        boolean apply() {
            return !table.dropped && action.getAsBoolean();
        }
    }

    /** What is rendered of the catalog. */
    private static final class Plan {
        final List<TablePlan> tables = new ArrayList<>();
        final List<JoinGraph.Edge> edges = new ArrayList<>();

        static Plan of(SchemaCatalog catalog, Map<String, ? extends Collection<String>> selection, boolean inferred) {
            Map<String, Set<String>> wanted = new LinkedHashMap<>();
            for (Map.Entry<String, ? extends Collection<String>> e : selection.entrySet()) {
                SchemaCatalog.Table t = catalog.table(e.getKey()).orElseThrow(() ->
                        new IllegalArgumentException("the selection names table " + e.getKey() + ", which the catalog lacks"));
                Set<String> cols = wanted.computeIfAbsent(t.name().toLowerCase(Locale.ROOT), k -> new LinkedHashSet<>());
                for (String c : e.getValue()) {
                    SchemaCatalog.Column col = catalog.column(t.name(), c).orElseThrow(() ->
                            new IllegalArgumentException("the selection names column " + t.name() + "." + c
                                    + ", which the catalog lacks"));
                    cols.add(col.name().toLowerCase(Locale.ROOT));
                }
            }
            Plan plan = new Plan();
            JoinGraph graph = catalog.joinGraph();
            for (JoinGraph.Edge e : graph.edges()) {
                if ((inferred || e.declared()) && wanted.containsKey(e.fromTable().toLowerCase(Locale.ROOT))
                        && wanted.containsKey(e.toTable().toLowerCase(Locale.ROOT))) {
                    plan.edges.add(e);
                }
            }
            SchemaEnrichment enrichment = catalog.enrichment();
            for (SchemaCatalog.Table t : catalog.tables()) {
                Set<String> cols = wanted.get(t.name().toLowerCase(Locale.ROOT));
                if (cols == null) {
                    continue;
                }
                Set<String> keys = new LinkedHashSet<>();
                for (String pk : t.primaryKey()) {
                    keys.add(pk.toLowerCase(Locale.ROOT));
                }
                for (JoinGraph.Edge e : plan.edges) {
                    if (e.fromTable().equalsIgnoreCase(t.name())) {
                        keys.add(e.fromColumn().toLowerCase(Locale.ROOT));
                    }
                    if (e.toTable().equalsIgnoreCase(t.name())) {
                        keys.add(e.toColumn().toLowerCase(Locale.ROOT));
                    }
                }
                TablePlan tp = new TablePlan(t, enrichment.tableDescription(t.name()).orElse(t.remarks()),
                        enrichment.termsFor(t.name(), null));
                for (SchemaCatalog.Column c : t.columns()) {
                    String lc = c.name().toLowerCase(Locale.ROOT);
                    boolean key = keys.contains(lc);
                    if (key || cols.contains(lc)) {
                        tp.columns.add(new ColumnPlan(c, key,
                                enrichment.columnDescription(t.name(), c.name()).orElse(c.remarks()),
                                enrichment.termsFor(t.name(), c.name()),
                                enrichment.codedValues(t.name(), c.name()),
                                enrichment.sampleValues(t.name(), c.name())));
                    }
                }
                plan.tables.add(tp);
            }
            return plan;
        }

        List<JoinGraph.Edge> outgoing(TablePlan t) {
            List<JoinGraph.Edge> out = new ArrayList<>();
            for (JoinGraph.Edge e : edges) {
                if (e.fromTable().equalsIgnoreCase(t.table.name()) && shown(e.toTable())) {
                    out.add(e);
                }
            }
            return out;
        }

        private boolean shown(String table) {
            for (TablePlan t : tables) {
                if (t.table.name().equalsIgnoreCase(table)) {
                    return !t.dropped;
                }
            }
            return false;
        }

        /** {@return the tables, fewest join edges to the others first, later in the catalog first on ties} */
        List<TablePlan> leastNeededFirst() {
            List<TablePlan> order = new ArrayList<>(tables);
            Map<TablePlan, Integer> degree = new LinkedHashMap<>();
            Map<TablePlan, Integer> position = new LinkedHashMap<>();
            for (int i = 0; i < tables.size(); i++) {
                TablePlan t = tables.get(i);
                position.put(t, i);
                Set<String> neighbours = new LinkedHashSet<>();
                for (JoinGraph.Edge e : edges) {
                    if (e.fromTable().equalsIgnoreCase(t.table.name())) {
                        neighbours.add(e.toTable().toLowerCase(Locale.ROOT));
                    } else if (e.toTable().equalsIgnoreCase(t.table.name())) {
                        neighbours.add(e.fromTable().toLowerCase(Locale.ROOT));
                    }
                }
                degree.put(t, neighbours.size());
            }
            order.sort(Comparator.<TablePlan>comparingInt(degree::get).thenComparing(t -> -position.get(t)));
            return order;
        }
    }

    /** What is rendered of one table. */
    private static final class TablePlan {
        final SchemaCatalog.Table table;
        final List<ColumnPlan> columns = new ArrayList<>();
        String description;
        List<String> terms;
        boolean dropped;

        TablePlan(SchemaCatalog.Table table, String description, List<String> terms) {
            this.table = table;
            this.description = description;
            this.terms = terms;
        }

        String descriptionText() {
            if (terms.isEmpty()) {
                return description;
            }
            String also = "also called: " + String.join(", ", terms);
            return description.isEmpty() ? also : description + " (" + also + ")";
        }

        boolean clearDescription() {
            boolean had = !description.isEmpty() || !terms.isEmpty();
            description = "";
            terms = List.of();
            return had;
        }

        boolean clearColumns(Note which) {
            boolean any = false;
            for (ColumnPlan c : columns) {
                any |= c.clear(which);
            }
            return any;
        }
    }

    /** A kind of note on a column. */
    private enum Note {
        SAMPLES, DESCRIPTION, CODES
    }

    /** What is rendered of one column. */
    private static final class ColumnPlan {
        final SchemaCatalog.Column column;
        final boolean key;
        boolean shown = true;
        String description;
        List<String> terms;
        Map<String, String> codes;
        List<String> samples;

        ColumnPlan(SchemaCatalog.Column column, boolean key, String description, List<String> terms,
                Map<String, String> codes, List<String> samples) {
            this.column = column;
            this.key = key;
            this.description = description;
            this.terms = terms;
            this.codes = codes;
            this.samples = samples;
        }

        boolean clear(Note which) {
            boolean had;
            switch (which) {
                case SAMPLES:
                    had = !samples.isEmpty();
                    samples = List.of();
                    break;
                case DESCRIPTION:
                    had = !description.isEmpty() || !terms.isEmpty();
                    description = "";
                    terms = List.of();
                    break;
                default:
                    had = !codes.isEmpty();
                    codes = Map.of();
                    break;
            }
            return had && shown;
        }

        String notes(String separator) {
            List<String> parts = new ArrayList<>();
            if (!description.isEmpty()) {
                parts.add(description);
            }
            if (!terms.isEmpty()) {
                parts.add("also called: " + String.join(", ", terms));
            }
            if (!codes.isEmpty()) {
                List<String> cs = new ArrayList<>();
                codes.forEach((k, v) -> cs.add(k + "=" + v));
                parts.add("values: " + String.join(", ", cs));
            }
            if (!samples.isEmpty()) {
                List<String> quoted = new ArrayList<>();
                for (String s : samples) {
                    quoted.add("'" + s.replace("'", "''") + "'");
                }
                parts.add("e.g. " + String.join(", ", quoted));
            }
            return String.join(separator, parts);
        }
    }

    /** Settings of a {@link SchemaRenderer}. */
    public static final class Builder {
        private Format format = Format.DDL;
        private TokenEstimator estimator = TokenEstimator.heuristic();
        private boolean inferredJoins = true;

        private Builder() {
        }

        /**
         * Sets how the schema is written; defaults to {@link Format#DDL}.
         *
         * @param format DDL or Markdown, not null
         * @return this builder
         * @throws NullPointerException if {@code format} is null
         */
        public Builder format(Format format) {
            this.format = Objects.requireNonNull(format, "format");
            return this;
        }

        /**
         * Sets how tokens are counted against the budget; defaults to {@link TokenEstimator#heuristic()}.
         *
         * @param estimator how tokens are counted, not null
         * @return this builder
         * @throws NullPointerException if {@code estimator} is null
         */
        public Builder estimator(TokenEstimator estimator) {
            this.estimator = Objects.requireNonNull(estimator, "estimator");
            return this;
        }

        /**
         * Chooses whether joins inferred from column names are shown, marked as inferred, besides the
         * declared foreign keys; defaults to true.
         *
         * @param show whether inferred joins are shown
         * @return this builder
         */
        public Builder inferredJoins(boolean show) {
            this.inferredJoins = show;
            return this;
        }

        /**
         * Builds the renderer from the settings given so far.
         *
         * @return the renderer
         */
        public SchemaRenderer build() {
            return new SchemaRenderer(this);
        }
    }
}
