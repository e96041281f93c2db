package dev.sqlagent.metrics;

import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.internal.SqlTokens;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A vetted SQL template for a standard metric ("monthly revenue by region"), with typed named
 * parameters written {@code :name}. When a question matches a registered metric, the agent runs the
 * template with bound parameters instead of asking the model for SQL; when the template fails or does
 * not fit, it falls back to text-to-SQL once (a different approach, not a retry).
 *
 * <pre>{@code
 * MetricTool revenue = MetricTool.builder("monthly_revenue_by_region")
 *     .description("paid order revenue per month for one region and year")
 *     .sql("SELECT MONTH(o.order_date) AS month, SUM(o.amount) AS revenue FROM orders o"
 *        + " JOIN employee_region er ON er.employee_id = o.employee_id"
 *        + " JOIN regions r ON r.id = er.region_id"
 *        + " WHERE r.region_name = :region AND YEAR(o.order_date) = :year AND o.status = 'paid'"
 *        + " GROUP BY MONTH(o.order_date) ORDER BY month")
 *     .parameter("region", MetricTool.Type.STRING, "region name, e.g. 华东区")
 *     .parameter("year", MetricTool.Type.INTEGER, "four-digit year")
 *     .build();
 * }</pre>
 *
 * <p>Templates pass the guard like any SQL (tables, columns, functions, shape). They are not rewritten:
 * a policy that would add row filters to a template's tables makes the agent fall back to text-to-SQL,
 * so write tenant filters into the template itself. Immutable.
 */
public final class MetricTool {

    /** Parameter types, and how an argument is read. */
    public enum Type {
        /** Text, as given. */
        STRING,
        /** A whole number. */
        INTEGER,
        /** A decimal number. */
        DECIMAL,
        /** An ISO date {@code yyyy-mm-dd}. */
        DATE,
        /** {@code true} or {@code false}. */
        BOOLEAN
    }

    /**
     * A declared parameter.
     *
     * @param name its name, as written after {@code :}
     * @param type its type
     * @param description what it means, shown to the model
     */
    public record Parameter(String name, Type type, String description) {
        /**
         * Checks the parts.
         *
         * @param name its name, as written after {@code :}
         * @param type its type
         * @param description what it means, shown to the model
         */
        public Parameter {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(description, "description");
        }
    }

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    private final String name;
    private final String description;
    private final String sql;
    private final String jdbcSql;
    private final String checkedSql;
    private final List<String> placeholderOrder;
    private static final String MARKER = "__sqlagent_param_";

    /** The template cut at each placeholder: one more piece than placeholders. */
    private final List<String> pieces;
    private final Map<String, Parameter> parameters;

    private MetricTool(Builder b, String jdbcSql, String checkedSql, List<String> order, List<String> pieces) {
        this.pieces = List.copyOf(pieces);
        this.name = b.name;
        this.description = b.description;
        this.sql = b.sql;
        this.jdbcSql = jdbcSql;
        this.checkedSql = checkedSql;
        this.placeholderOrder = List.copyOf(order);
        this.parameters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(b.parameters));
    }

    /**
     * Starts a builder for a metric.
     *
     * @param name the metric's name, an identifier ({@code [A-Za-z_][A-Za-z0-9_]*}, at most 63 characters)
     * @return a builder
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is not an identifier
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** {@return the name} */
    public String name() {
        return name;
    }

    /** {@return the description shown to the model} */
    public String description() {
        return description;
    }

    /** {@return the template as written, with {@code :name} placeholders} */
    public String sql() {
        return sql;
    }

    /** {@return the template with {@code ?} in place of each placeholder} */
    public String jdbcSql() {
        return jdbcSql;
    }

    /**
     * {@return the template with {@code NULL} in place of each placeholder: what the guard checks (the
     * guard refuses {@code ?} in model-written SQL, and a literal keeps the template's shape)}
     */
    public String checkedSql() {
        return checkedSql;
    }

    /**
     * The template with each placeholder replaced by a marker literal ({@code '__sqlagent_param_0__'},
     * …): what the guard checks and rewrites (row cap, mandatory row filters) under the request's policy.
     * {@link #bind(SqlStatement, List)} then turns the guard's rewrite back into a statement with every
     * value bound, so that the statement that runs is exactly the guard's rewrite.
     *
     * @return the template with marker literals
     */
    public String markedSql() {
        StringBuilder sb = new StringBuilder(pieces.get(0));
        for (int i = 1; i < pieces.size(); i++) {
            sb.append('\'').append(MARKER).append(i - 1).append("__'").append(pieces.get(i));
        }
        return sb.toString();
    }

    /**
     * Binds the values into the guard's rewrite of {@link #markedSql()}: each marker literal becomes a
     * {@code ?} bound to its value, and the rewrite's own parameters (row filters) keep their places.
     *
     * @param rewritten the statement the guard accepted for {@link #markedSql()}
     * @param values the values from {@link #bind(Map)}, in placeholder order
     * @return the statement to run
     * @throws IllegalArgumentException if a value is missing or the rewrite lost a marker
     */
    public SqlStatement bind(SqlStatement rewritten, List<Object> values) {
        String sql = rewritten.sql();
        List<Object> filters = rewritten.parameters();
        List<Object> bound = new ArrayList<>();
        StringBuilder out = new StringBuilder(sql.length());
        int next = 0;
        int markers = 0;
        int copied = 0;
        for (SqlTokens.Token t : SqlTokens.scan(sql)) {
            String text = t.text(sql);
            if (t.kind() == SqlTokens.Kind.STRING && text.startsWith("'" + MARKER) && text.endsWith("__'")) {
                int index = Integer.parseInt(text.substring(MARKER.length() + 1, text.length() - 3));
                if (index >= values.size()) {
                    throw new IllegalArgumentException("metric '" + name + "': no value for placeholder " + index);
                }
                out.append(sql, copied, t.start()).append('?');
                copied = t.end();
                bound.add(values.get(index));
                markers++;
            } else if (t.kind() == SqlTokens.Kind.SYMBOL && text.equals("?")) {
                bound.add(filters.get(next++));
            }
        }
        out.append(sql.substring(copied));
        if (markers != placeholderOrder.size()) {
            throw new IllegalArgumentException("metric '" + name + "': the rewrite holds " + markers + " of "
                    + placeholderOrder.size() + " placeholders");
        }
        return new SqlStatement(out.toString(), bound);
    }

    /** {@return the declared parameters in order} */
    public List<Parameter> parameters() {
        return List.copyOf(parameters.values());
    }

    /**
     * Binds arguments to the placeholders, in the order they appear in the template.
     *
     * @param arguments argument text by parameter name
     * @return the values to bind, or empty with no partial result when an argument is missing or does not
     *     read as its type
     */
    public Optional<List<Object>> bind(Map<String, String> arguments) {
        List<Object> values = new ArrayList<>();
        for (String p : placeholderOrder) {
            String raw = arguments.get(p);
            if (raw == null || raw.isBlank()) {
                return Optional.empty();
            }
            Optional<Object> v = read(parameters.get(p).type(), raw.trim());
            if (v.isEmpty()) {
                return Optional.empty();
            }
            values.add(v.get());
        }
        return Optional.of(values);
    }

    private static Optional<Object> read(Type type, String raw) {
        try {
            switch (type) {
                case STRING: return Optional.of(raw);
                case INTEGER: return Optional.of(Long.parseLong(raw));
                case DECIMAL: return Optional.of(new BigDecimal(raw));
                case DATE: return Optional.of(java.sql.Date.valueOf(LocalDate.parse(raw)));
                case BOOLEAN:
                    if (raw.equalsIgnoreCase("true") || raw.equalsIgnoreCase("false")) {
                        return Optional.of(Boolean.parseBoolean(raw));
                    }
                    return Optional.empty();
                default: return Optional.empty();
            }
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@return the metric as the router sees it: name, description, parameters} */
    public String describe() {
        StringBuilder sb = new StringBuilder("- ").append(name).append(": ").append(description);
        for (Parameter p : parameters.values()) {
            sb.append("\n    ").append(p.name()).append(" (").append(p.type().name().toLowerCase(Locale.ROOT))
                    .append("): ").append(p.description());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "MetricTool{" + name + ", parameters=" + parameters.keySet() + '}';
    }

    /** Builds a {@link MetricTool}; {@link #build()} checks that placeholders and parameters match. */
    public static final class Builder {
        private final String name;
        private String description = "";
        private String sql;
        private final Map<String, Parameter> parameters = new LinkedHashMap<>();

        private Builder(String name) {
            Objects.requireNonNull(name, "name");
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("metric name must be an identifier but was '" + name + "'");
            }
            this.name = name;
        }

        /**
         * Sets what the metric computes, in words the router model reads to match questions; defaults to
         * empty.
         *
         * @param description what the metric computes, not null
         * @return this builder
         * @throws NullPointerException if {@code description} is null
         */
        public Builder description(String description) {
            this.description = Objects.requireNonNull(description, "description");
            return this;
        }

        /**
         * Sets the SQL template; required.
         *
         * @param sql the template with {@code :name} placeholders, not blank
         * @return this builder
         * @throws NullPointerException if {@code sql} is null
         * @throws IllegalArgumentException if {@code sql} is blank
         */
        public Builder sql(String sql) {
            Objects.requireNonNull(sql, "sql");
            if (sql.isBlank()) {
                throw new IllegalArgumentException("sql must not be blank");
            }
            this.sql = sql;
            return this;
        }

        /**
         * Declares a parameter; every placeholder of the template must be declared, and every declared
         * parameter used.
         *
         * @param name the parameter's name as written after {@code :}, an identifier
         * @param type its type
         * @param description what it means, shown to the model
         * @return this builder
         * @throws IllegalArgumentException if the name is not an identifier or is declared twice
         * @throws NullPointerException if an argument is null
         */
        public Builder parameter(String name, Type type, String description) {
            Objects.requireNonNull(name, "name");
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("parameter name must be an identifier but was '" + name + "'");
            }
            if (parameters.containsKey(name)) {
                throw new IllegalArgumentException("parameter '" + name + "' declared twice");
            }
            parameters.put(name, new Parameter(name, type, description));
            return this;
        }

        /**
         * Builds the metric, matching the template's placeholders with the declared parameters.
         *
         * @return the metric
         * @throws IllegalStateException when the SQL is missing, a placeholder is undeclared or a declared
         *     parameter is unused
         */
        public MetricTool build() {
            if (sql == null) {
                throw new IllegalStateException("metric '" + name + "' needs sql(...)");
            }
            if (sql.contains(MARKER)) {
                throw new IllegalStateException("metric '" + name + "' must not contain the text " + MARKER);
            }
            List<String> order = new ArrayList<>();
            List<String> pieces = new ArrayList<>();
            StringBuilder jdbc = new StringBuilder();
            StringBuilder checked = new StringBuilder();
            List<SqlTokens.Token> tokens = SqlTokens.scan(sql);
            int copied = 0;
            for (int t = 0; t + 1 < tokens.size(); t++) {
                SqlTokens.Token colon = tokens.get(t);
                SqlTokens.Token word = tokens.get(t + 1);
                if (!colon.text(sql).equals(":") || word.kind() != SqlTokens.Kind.WORD || word.start() != colon.end()) {
                    continue;
                }
                String p = word.text(sql);
                if (!parameters.containsKey(p)) {
                    throw new IllegalStateException("metric '" + name + "' uses :" + p + " but declares no such parameter");
                }
                String before = sql.substring(copied, colon.start());
                pieces.add(before);
                jdbc.append(before).append('?');
                checked.append(before).append("NULL");
                order.add(p);
                copied = word.end();
                t++;
            }
            String rest = sql.substring(copied);
            pieces.add(rest);
            jdbc.append(rest);
            checked.append(rest);
            Set<String> unused = new LinkedHashSet<>(parameters.keySet());
            unused.removeAll(order);
            if (!unused.isEmpty()) {
                throw new IllegalStateException("metric '" + name + "' declares unused parameter(s) " + unused);
            }
            return new MetricTool(this, jdbc.toString(), checked.toString(), order, pieces);
        }
    }
}
