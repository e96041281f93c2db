package dev.sqlagent.schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the host knows of its schema and the database cannot say: descriptions of tables and columns,
 * the meanings of coded values, business terms and their synonyms, sample values. Immutable; build one
 * with {@link #builder()} and apply it with {@link SchemaCatalog#enrich(SchemaEnrichment)}.
 *
 * <p>Names are matched without regard to case. A column is named by its table and its name; a synonym
 * targets a table ({@code "orders"}) or a column ({@code "orders.amount"}).
 */
public final class SchemaEnrichment {

    /** An enrichment that adds nothing. */
    public static final SchemaEnrichment EMPTY = builder().build();

    private final Map<String, String> tableDescriptions;
    private final Map<String, String> columnDescriptions;
    private final Map<String, Map<String, String>> codedValues;
    private final Map<String, List<String>> synonyms;
    private final Map<String, List<String>> sampleValues;

    private SchemaEnrichment(Builder b) {
        this.tableDescriptions = Collections.unmodifiableMap(new LinkedHashMap<>(b.tableDescriptions));
        this.columnDescriptions = Collections.unmodifiableMap(new LinkedHashMap<>(b.columnDescriptions));
        Map<String, Map<String, String>> codes = new LinkedHashMap<>();
        b.codedValues.forEach((k, v) -> codes.put(k, Collections.unmodifiableMap(new LinkedHashMap<>(v))));
        this.codedValues = Collections.unmodifiableMap(codes);
        Map<String, List<String>> syn = new LinkedHashMap<>();
        b.synonyms.forEach((k, v) -> syn.put(k, List.copyOf(v)));
        this.synonyms = Collections.unmodifiableMap(syn);
        Map<String, List<String>> samples = new LinkedHashMap<>();
        b.sampleValues.forEach((k, v) -> samples.put(k, List.copyOf(v)));
        this.sampleValues = Collections.unmodifiableMap(samples);
    }

    /** {@return a new, empty builder} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding everything this enrichment holds} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.tableDescriptions.putAll(tableDescriptions);
        b.columnDescriptions.putAll(columnDescriptions);
        codedValues.forEach((k, v) -> b.codedValues.put(k, new LinkedHashMap<>(v)));
        synonyms.forEach((k, v) -> b.synonyms.put(k, new LinkedHashSet<>(v)));
        sampleValues.forEach((k, v) -> b.sampleValues.put(k, new ArrayList<>(v)));
        return b;
    }

    /** {@return whether this enrichment adds nothing} */
    public boolean isEmpty() {
        return tableDescriptions.isEmpty() && columnDescriptions.isEmpty() && codedValues.isEmpty()
                && synonyms.isEmpty() && sampleValues.isEmpty();
    }

    /**
     * Looks up the host's description of a table.
     *
     * @param table a table name, any case
     * @return the host's description of it, if any
     */
    public Optional<String> tableDescription(String table) {
        return Optional.ofNullable(tableDescriptions.get(key(table)));
    }

    /**
     * Looks up the host's description of a column.
     *
     * @param table a table name, any case
     * @param column a column name, any case
     * @return the host's description of the column, if any
     */
    public Optional<String> columnDescription(String table, String column) {
        return Optional.ofNullable(columnDescriptions.get(key(table, column)));
    }

    /**
     * Looks up the meanings of a coded column's values.
     *
     * @param table a table name, any case
     * @param column a column name, any case
     * @return code to meaning, in the order given (numeric codes in numeric order); empty when none
     */
    public Map<String, String> codedValues(String table, String column) {
        return codedValues.getOrDefault(key(table, column), Map.of());
    }

    /**
     * Looks up the sample values the host gave for a column.
     *
     * @param table a table name, any case
     * @param column a column name, any case
     * @return sample values of the column; empty when none
     */
    public List<String> sampleValues(String table, String column) {
        return sampleValues.getOrDefault(key(table, column), List.of());
    }

    /**
     * {@return every business term (as given) with its targets ({@code "table"} or {@code "table.column"},
     * lower case)}
     */
    public Map<String, List<String>> synonyms() {
        return synonyms;
    }

    /**
     * Lists the business terms that name a table or a column.
     *
     * @param table a table name, any case
     * @param column a column name, any case, or {@code null} for the table itself
     * @return the terms that name this table or column, in the order given
     */
    public List<String> termsFor(String table, String column) {
        String target = column == null ? key(table) : key(table, column);
        List<String> terms = new ArrayList<>();
        synonyms.forEach((term, targets) -> {
            if (targets.contains(target)) {
                terms.add(term);
            }
        });
        return terms;
    }

    /** {@return the tables this enrichment names anywhere, lower case} */
    Set<String> namedTables() {
        Set<String> names = new LinkedHashSet<>(tableDescriptions.keySet());
        for (String k : columnDescriptions.keySet()) {
            names.add(tableOf(k));
        }
        for (String k : codedValues.keySet()) {
            names.add(tableOf(k));
        }
        for (String k : sampleValues.keySet()) {
            names.add(tableOf(k));
        }
        for (List<String> targets : synonyms.values()) {
            for (String t : targets) {
                names.add(tableOf(t));
            }
        }
        return names;
    }

    /** {@return every column key ({@code table.column}, lower case) this enrichment names} */
    Set<String> namedColumns() {
        Set<String> names = new LinkedHashSet<>(columnDescriptions.keySet());
        names.addAll(codedValues.keySet());
        names.addAll(sampleValues.keySet());
        for (List<String> targets : synonyms.values()) {
            for (String t : targets) {
                if (t.indexOf('.') >= 0) {
                    names.add(t);
                }
            }
        }
        return names;
    }

    /**
     * Keeps only what concerns the given tables (lower-case names).
     *
     * @param tables the tables to keep
     * @return the restricted enrichment
     */
    SchemaEnrichment restrictedTo(Set<String> tables) {
        Builder b = toBuilder();
        b.tableDescriptions.keySet().removeIf(k -> !tables.contains(k));
        b.columnDescriptions.keySet().removeIf(k -> !tables.contains(tableOf(k)));
        b.codedValues.keySet().removeIf(k -> !tables.contains(tableOf(k)));
        b.sampleValues.keySet().removeIf(k -> !tables.contains(tableOf(k)));
        for (Set<String> targets : b.synonyms.values()) {
            targets.removeIf(t -> !tables.contains(tableOf(t)));
        }
        b.synonyms.values().removeIf(Set::isEmpty);
        return b.build();
    }

    /**
     * @param hidden whether a {@code table.column} key must go
     * @return this enrichment without the column-level entries (descriptions, coded values, samples,
     *     synonym targets) of hidden columns
     */
    SchemaEnrichment withoutColumns(java.util.function.Predicate<String> hidden) {
        Builder b = toBuilder();
        b.columnDescriptions.keySet().removeIf(hidden);
        b.codedValues.keySet().removeIf(hidden);
        b.sampleValues.keySet().removeIf(hidden);
        for (Set<String> targets : b.synonyms.values()) {
            targets.removeIf(hidden);
        }
        b.synonyms.values().removeIf(Set::isEmpty);
        return b.build();
    }

    /**
     * @param later an enrichment whose entries win
     * @return this enrichment with the later one's entries added (synonyms add up)
     */
    SchemaEnrichment plus(SchemaEnrichment later) {
        Builder b = toBuilder();
        b.tableDescriptions.putAll(later.tableDescriptions);
        b.columnDescriptions.putAll(later.columnDescriptions);
        later.codedValues.forEach((k, v) -> b.codedValues.put(k, new LinkedHashMap<>(v)));
        later.synonyms.forEach((k, v) -> b.synonyms.computeIfAbsent(k, x -> new LinkedHashSet<>()).addAll(v));
        later.sampleValues.forEach((k, v) -> b.sampleValues.put(k, new ArrayList<>(v)));
        return b.build();
    }

    private static String tableOf(String key) {
        int dot = key.indexOf('.');
        return dot < 0 ? key : key.substring(0, dot);
    }

    static String key(String table) {
        return Objects.requireNonNull(table, "table").trim().toLowerCase(Locale.ROOT);
    }

    static String key(String table, String column) {
        return key(table) + '.' + Objects.requireNonNull(column, "column").trim().toLowerCase(Locale.ROOT);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SchemaEnrichment && ((SchemaEnrichment) o).tableDescriptions.equals(tableDescriptions)
                && ((SchemaEnrichment) o).columnDescriptions.equals(columnDescriptions)
                && ((SchemaEnrichment) o).codedValues.equals(codedValues)
                && ((SchemaEnrichment) o).synonyms.equals(synonyms)
                && ((SchemaEnrichment) o).sampleValues.equals(sampleValues);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tableDescriptions, columnDescriptions, codedValues, synonyms, sampleValues);
    }

    @Override
    public String toString() {
        return "SchemaEnrichment{tables=" + tableDescriptions.size() + ", columns=" + columnDescriptions.size()
                + ", codedColumns=" + codedValues.size() + ", terms=" + synonyms.size()
                + ", sampledColumns=" + sampleValues.size() + '}';
    }

    /** Collects an enrichment. Later calls for the same table or column replace earlier ones, except synonyms, which add up. */
    public static final class Builder {
        private final Map<String, String> tableDescriptions = new LinkedHashMap<>();
        private final Map<String, String> columnDescriptions = new LinkedHashMap<>();
        private final Map<String, Map<String, String>> codedValues = new LinkedHashMap<>();
        private final Map<String, Set<String>> synonyms = new LinkedHashMap<>();
        private final Map<String, List<String>> sampleValues = new LinkedHashMap<>();

        private Builder() {
        }

        /**
         * Describes a table, in words shown to the model next to its definition.
         *
         * @param table a table name
         * @param description what the table holds, e.g. "one row per order"
         * @return this builder
         * @throws IllegalArgumentException when a part is blank
         */
        public Builder describeTable(String table, String description) {
            tableDescriptions.put(name("table", table), text("description", description));
            return this;
        }

        /**
         * Describes a column, in words shown to the model next to its definition.
         *
         * @param table a table name
         * @param column a column name
         * @param description what the column means, e.g. "order value in euros, tax included"
         * @return this builder
         * @throws IllegalArgumentException when a part is blank
         */
        public Builder describeColumn(String table, String column, String description) {
            columnDescriptions.put(name("table", table) + '.' + name("column", column), text("description", description));
            return this;
        }

        /**
         * The meanings of a coded column's values, e.g. {@code paid -> "paid"}, {@code 1 -> "paid"}.
         *
         * @param table a table name
         * @param column a column name
         * @param meanings code to meaning; numeric codes are kept in numeric order, others in the map's order
         *     (unordered maps are sorted)
         * @return this builder
         * @throws IllegalArgumentException when the map is empty or a code or meaning is blank
         */
        public Builder codedValues(String table, String column, Map<?, String> meanings) {
            Objects.requireNonNull(meanings, "meanings");
            if (meanings.isEmpty()) {
                throw new IllegalArgumentException("meanings of " + table + "." + column + " must not be empty");
            }
            Map<String, String> copy = new LinkedHashMap<>();
            meanings.forEach((code, meaning) -> copy.put(text("code", code == null ? null : String.valueOf(code)),
                    text("meaning of " + code, meaning)));
            codedValues.put(name("table", table) + '.' + name("column", column), ordered(copy, meanings));
            return this;
        }

        /**
         * A business term or synonym and what it names, e.g. {@code synonym("销售额", "orders.amount")}.
         * A term may name several targets.
         *
         * @param term the word users say
         * @param target {@code "table"} or {@code "table.column"}
         * @return this builder
         * @throws IllegalArgumentException when a part is blank or the target has more than one dot
         */
        public Builder synonym(String term, String target) {
            String t = text("term", term);
            String tgt = name("target", target);
            if (tgt.indexOf('.') != tgt.lastIndexOf('.') || tgt.startsWith(".") || tgt.endsWith(".")) {
                throw new IllegalArgumentException("target must be \"table\" or \"table.column\" but was " + target);
            }
            synonyms.computeIfAbsent(t, k -> new LinkedHashSet<>()).add(tgt);
            return this;
        }

        /**
         * Gives some of a column's values, shown to the model so that it writes literals as the data
         * does; an empty list removes those given before.
         *
         * @param table a table name
         * @param column a column name
         * @param values some of the column's values, in the order to show them
         * @return this builder
         * @throws NullPointerException when a value is null
         */
        public Builder sampleValues(String table, String column, List<String> values) {
            List<String> copy = List.copyOf(values);
            String k = name("table", table) + '.' + name("column", column);
            if (copy.isEmpty()) {
                sampleValues.remove(k);
            } else {
                sampleValues.put(k, copy);
            }
            return this;
        }

        /**
         * Adds every column's values read by {@link SampleValues}.
         *
         * @param loaded what a loader read
         * @return this builder
         */
        public Builder sampleValues(SampleValues.Loaded loaded) {
            loaded.values().forEach((table, columns) -> columns.forEach((column, values) -> sampleValues(table, column, values)));
            return this;
        }

        /** {@return the enrichment} */
        public SchemaEnrichment build() {
            return new SchemaEnrichment(this);
        }

        private static Map<String, String> ordered(Map<String, String> copy, Map<?, String> given) {
            boolean numeric = copy.keySet().stream().allMatch(k -> k.matches("-?\\d{1,18}"));
            if (numeric) {
                Map<String, String> sorted = new TreeMap<>((a, b) -> Long.compare(Long.parseLong(a), Long.parseLong(b)));
                sorted.putAll(copy);
                return new LinkedHashMap<>(sorted);
            }
            if (given instanceof LinkedHashMap || given instanceof SortedMap || given.size() == 1) {
                return copy;
            }
            return new LinkedHashMap<>(new TreeMap<>(copy));
        }

        private static String name(String field, String value) {
            return text(field, value).toLowerCase(Locale.ROOT);
        }

        private static String text(String field, String value) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(field + " must not be blank but was " + (value == null ? "null" : "\"" + value + "\""));
            }
            return value.trim();
        }
    }
}
