package dev.sqlagent.engine.trino;

import dev.sqlagent.engine.EngineGuard;
import dev.sqlagent.engine.FunctionTable;
import dev.sqlagent.engine.Respelled;
import dev.sqlagent.engine.Respelling;
import dev.sqlagent.engine.RowCap;
import dev.sqlagent.engine.SqlLexer;
import dev.sqlagent.guard.FunctionClass;
import dev.sqlagent.guard.Violation;
import dev.sqlagent.guard.ViolationType;
import dev.sqlagent.internal.Identifiers;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.statement.select.TableFunction;

/**
 * How the guard reads Trino's SQL.
 *
 * <ul>
 *   <li>Names: Trino folds every identifier to lower case, quoted or not ({@code "SSN"} reads {@code ssn}), so
 *       names compare case-insensitively. A table is named {@code catalog.schema.table}; the policy's entries are
 *       resolved against the session's catalog and schema when the agent is built (see {@code TrinoDatabase}),
 *       and any other catalog ({@code system}, {@code tpch}, another connector) or {@code information_schema} is
 *       simply not allowed: closed world.</li>
 *   <li>Spelling ({@link TrinoSpelling}): {@code CAST(x AS array(T))} is read as {@code T ARRAY}, an
 *       {@code OFFSET … LIMIT} is printed back in Trino's order; table functions {@code TABLE(…)}, time travel,
 *       {@code MATCH_RECOGNIZE}, {@code U&'…'} and the normal forms of {@code normalize} are refused, since the
 *       parser would read something other than what Trino runs.</li>
 *   <li>Lambdas {@code x -> …}: Trino has no other arrow, so they are read (their bodies analysed like any
 *       expression, their parameters names of their own). {@code ROW} values and {@code (v).field} are read.</li>
 *   <li>Functions: the catalog generated from the cluster's {@code SHOW FUNCTIONS}
 *       ({@code functions.tsv}, beside this class).</li>
 *   <li>Read in one exact form each ({@link #tableFunctionProblem}, {@link #valuesInFrom}, {@link #rowTypeFields},
 *       {@link #sqlJsonQueries}): {@code UNNEST(…) [WITH ORDINALITY] AS u(c1, …)} in {@code FROM}, its arguments
 *       seeing the items before it and its columns its alias list's; {@code (VALUES …) AS v(c1, …)} in
 *       {@code FROM}; casts to {@code ROW(n type, …)}; {@code JSON_QUERY(x, 'path')} and
 *       {@code JSON_VALUE(x, 'path')}.</li>
 *   <li>No {@code NATURAL JOIN} (Trino has none); the row cap is {@code LIMIT}.</li>
 * </ul>
 */
final class TrinoGuard implements EngineGuard {

    /** What to write instead of functions models invent on this engine. */
    private static final Map<String, String> EQUIVALENTS = FunctionTable.pairs(
            "ifnull", "COALESCE(<value>, <default>)",
            "nvl", "COALESCE(<value>, <default>)",
            "iif", "IF(<condition>, <a>, <b>)",
            "datediff", "date_diff('day', <start>, <end>)",
            "timestampdiff", "date_diff(<unit>, <start>, <end>)",
            "dateadd", "date_add(<unit>, <n>, <date>)",
            "strftime", "format_datetime(<timestamp>, <format>)",
            "date_format", "format_datetime(<timestamp>, <format>)",
            "to_char", "format_datetime(<timestamp>, <format>)",
            "curdate", "current_date",
            "getdate", "now()",
            "sysdate", "now()",
            "group_concat", "array_join(array_agg(<value>), <separator>)",
            "string_agg", "array_join(array_agg(<value>), <separator>)",
            "charindex", "strpos(<text>, <part>)",
            "locate", "strpos(<text>, <part>)",
            "instr", "strpos(<text>, <part>)",
            "len", "length(<text>)",
            "substring_index", "split_part(<text>, <delimiter>, <n>)");

    @Override
    public String name() {
        return "Trino";
    }

    @Override
    public String promptHints() {
        return "Trino: single quotes for strings, double quotes only for identifiers; CAST(x AS type) or "
                + "try_cast; date_trunc('month', d), year(d); no NATURAL JOIN; never name another catalog, "
                + "information_schema or a table function.";
    }

    @Override
    public Identifiers.Rule columnRule() {
        return Identifiers.Rule.INSENSITIVE;
    }

    /** The memory and TPC-H connectors add no hidden columns; the hidden {@code $…} columns of others cannot be written. */
    @Override
    public Set<String> systemColumns() {
        return Set.of();
    }

    @Override
    public boolean dottedFieldAccess() {
        return true;
    }

    @Override
    public boolean fieldAccess() {
        return true;
    }

    @Override
    public boolean lambdas() {
        return true;
    }

    @Override
    public boolean naturalJoins() {
        return false;
    }

    @Override
    public RowCap rowCap() {
        return RowCap.LIMIT;
    }

    /**
     * The catalog generated from {@code SHOW FUNCTIONS}, and the special forms Trino's grammar has instead of
     * functions, which {@code SHOW FUNCTIONS} does not list: {@code IF}, {@code TRY}, {@code FORMAT},
     * {@code GROUPING} and the {@code ROW} constructor compute over their arguments only (whose columns the
     * analysis checks like any other).
     */
    @Override
    public Map<String, FunctionClass> functionClasses() {
        Map<String, FunctionClass> m = new java.util.HashMap<>(FunctionTable.read(TrinoGuard.class));
        for (String form : SPECIAL_FORMS) {
            m.putIfAbsent(form, FunctionClass.SAFE_SCALAR);
        }
        return m;
    }

    /** Trino's special forms written like calls, not in {@code SHOW FUNCTIONS}. */
    private static final java.util.List<String> SPECIAL_FORMS = java.util.List.of("if", "try", "format", "grouping",
            "row", "coalesce", "nullif", "json_query", "json_value");

    /**
     * {@code CAST(x AS ROW(n varchar, s integer))}: the parser reads a ROW type of two fields or more (of one field
     * it reads, but its printing throws, and the statement is refused; a nested ROW type it does not read).
     */
    @Override
    public boolean rowTypeFields() {
        return true;
    }

    /** {@code JSON_QUERY(x, 'path')} and {@code JSON_VALUE(x, 'path')}, in that plain form. */
    @Override
    public boolean sqlJsonQueries() {
        return true;
    }

    /** {@code (VALUES …) AS v(c1, …)} in {@code FROM}. */
    @Override
    public boolean valuesInFrom() {
        return true;
    }

    /**
     * Trino names no column of a {@code VALUES} list (its alias list does): the empty name, which no Trino
     * statement can write ({@link TrinoSpelling} refuses {@code ""}), so no reference binds to one.
     */
    @Override
    public String valuesColumnName(int i) {
        return "";
    }

    /** {@code UNNEST(…)} in {@code FROM}, which the parser reads as a table function: see {@link #tableFunctionProblem}. */
    @Override
    public boolean expandsArguments(TableFunction tf) {
        Function f = tf.getFunction();
        return f != null && f.getMultipartName() != null && f.getMultipartName().size() == 1
                && "unnest".equalsIgnoreCase(f.getName());
    }

    /**
     * No table function but {@code UNNEST}, read only in the form {@code UNNEST(e1, e2, …) [WITH ORDINALITY]
     * [[AS] u[(c1, c2, …)]]}: its arguments are plain expressions (analysed like any other, a sub-query or a
     * lambda among them), its columns the names the alias lists (Trino requires the list to name every column,
     * the ordinality one too), and nothing else is written on it.
     */
    @Override
    public String tableFunctionProblem(TableFunction tf) {
        if (!expandsArguments(tf)) {
            return "table functions are not allowed in FROM (but UNNEST)";
        }
        Function f = tf.getFunction();
        if (tf.isRowsFrom() || tf.getPrefix() != null || tf.getPivot() != null || tf.getUnPivot() != null
                || tf.getSampleClause() != null
                || tf.getWithClause() != null && !tf.getWithClause().trim().equalsIgnoreCase("ORDINALITY")) {
            return "UNNEST is read only as UNNEST(…) [WITH ORDINALITY] [AS u(c1, …)]";
        }
        if (f.getParameters() == null || f.getParameters().isEmpty()
                || !f.toString().equals(f.getName() + "(" + f.getParameters() + ")")) {
            return "UNNEST takes one or more plain arguments and nothing else";
        }
        Alias alias = tf.getAlias();
        if (alias != null) {
            if (alias.getName() == null) {
                return "UNNEST's alias has no name";
            }
            if (alias.getAliasColumns() != null) {
                for (Alias.AliasColumn c : alias.getAliasColumns()) {
                    if (c == null || c.name == null || c.colDataType != null) {
                        return "UNNEST's column list names columns only, no types";
                    }
                }
            }
        }
        return null;
    }

    @Override
    public Map<String, String> functionEquivalents() {
        return EQUIVALENTS;
    }

    @Override
    public Respelled respell(SqlLexer.Result lexed, Respelling.Relexer relex) {
        TrinoSpelling.ForParser spelled = TrinoSpelling.forParser(lexed.sql());
        Violation violation = spelled.refusal() == null ? null : new Violation(
                spelled.refusal().startsWith("table functions") ? ViolationType.TABLE_FUNCTION
                        : ViolationType.UNSUPPORTED_CONSTRUCT, shorten(lexed.sql()), spelled.refusal());
        Respelling spelling = new Respelling() {
            @Override
            public String sql() {
                return spelled.sql();
            }

            @Override
            public Violation violation() {
                return violation;
            }

            @Override
            public boolean respelled() {
                return spelled.respelled();
            }
        };
        SqlLexer.Result after = relex.after(spelling, lexed);
        return new Respelled() {
            @Override
            public SqlLexer.Result lexed() {
                return after;
            }

            @Override
            public String forEngine(String printed) {
                return TrinoSpelling.forEngine(printed, spelled);
            }

            @Override
            public String unprintable() {
                return "the Trino syntax of this statement could not be printed back exactly";
            }

            /** Trino has no arrow but the lambda's: {@code x -> …} reads as nothing else. */
            @Override
            public boolean lambdasSpelled() {
                return true;
            }
        };
    }

    private static String shorten(String s) {
        String one = s.replaceAll("\\s+", " ").trim();
        return one.length() > 120 ? one.substring(0, 120) + "…" : one;
    }
}
