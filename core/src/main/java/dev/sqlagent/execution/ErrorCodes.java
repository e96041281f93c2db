package dev.sqlagent.execution;

import static dev.sqlagent.execution.ErrorCategory.AMBIGUOUS_COLUMN;
import static dev.sqlagent.execution.ErrorCategory.COLUMN_NOT_FOUND;
import static dev.sqlagent.execution.ErrorCategory.CONNECTION;
import static dev.sqlagent.execution.ErrorCategory.FUNCTION_NOT_FOUND;
import static dev.sqlagent.execution.ErrorCategory.GROUPING_ERROR;
import static dev.sqlagent.execution.ErrorCategory.PERMISSION_DENIED;
import static dev.sqlagent.execution.ErrorCategory.RESOURCE_LIMIT;
import static dev.sqlagent.execution.ErrorCategory.SYNTAX_ERROR;
import static dev.sqlagent.execution.ErrorCategory.TABLE_NOT_FOUND;
import static dev.sqlagent.execution.ErrorCategory.TIMEOUT;
import static dev.sqlagent.execution.ErrorCategory.TYPE_MISMATCH;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The code tables behind {@link ErrorClassifier}: vendor codes per dialect, SQLStates, and message
 * patterns. Sources are each vendor's documented error lists; a code that is absent here falls through
 * to the next layer rather than being guessed.
 */
final class ErrorCodes {

    private ErrorCodes() {
    }

    // ---------------------------------------------------------------- vendor codes

    /**
     * Looks up a vendor code in the engine's table.
     *
     * @return the category, or null when the dialect has no table or the code is not in it
     */
    static ErrorCategory byVendorCode(Dialect dialect, int code) {
        if (code == 0) {
            return null;
        }
        return Engines.of(dialect).database().errorOfVendorCode(code);
    }

    // ---------------------------------------------------------------- SQLStates

    /** Exact SQLStates: PostgreSQL's own ({@code 42P01}…), X/Open ({@code 42S02}…) and ODBC ({@code HYT00}). */
    private static final Map<String, ErrorCategory> STATES = Map.ofEntries(
            Map.entry("42P01", TABLE_NOT_FOUND), Map.entry("42S02", TABLE_NOT_FOUND),
            Map.entry("3F000", TABLE_NOT_FOUND),
            Map.entry("42703", COLUMN_NOT_FOUND), Map.entry("42S22", COLUMN_NOT_FOUND),
            Map.entry("42702", AMBIGUOUS_COLUMN), Map.entry("42P09", AMBIGUOUS_COLUMN),
            Map.entry("42601", SYNTAX_ERROR), Map.entry("42P10", SYNTAX_ERROR), Map.entry("42602", SYNTAX_ERROR),
            Map.entry("42622", SYNTAX_ERROR), Map.entry("42P02", SYNTAX_ERROR),
            Map.entry("42803", GROUPING_ERROR), Map.entry("42P20", GROUPING_ERROR),
            Map.entry("42883", FUNCTION_NOT_FOUND), Map.entry("42725", FUNCTION_NOT_FOUND),
            Map.entry("42804", TYPE_MISMATCH), Map.entry("42846", TYPE_MISMATCH), Map.entry("42P18", TYPE_MISMATCH),
            Map.entry("42P22", TYPE_MISMATCH), Map.entry("22P02", TYPE_MISMATCH), Map.entry("22007", TYPE_MISMATCH),
            Map.entry("22008", TYPE_MISMATCH), Map.entry("22018", TYPE_MISMATCH), Map.entry("22003", TYPE_MISMATCH),
            Map.entry("22005", TYPE_MISMATCH),
            Map.entry("42501", PERMISSION_DENIED), Map.entry("25006", PERMISSION_DENIED),
            Map.entry("57014", TIMEOUT), Map.entry("55P03", TIMEOUT), Map.entry("HYT00", TIMEOUT),
            Map.entry("HYT01", TIMEOUT), Map.entry("HY008", TIMEOUT), Map.entry("70100", TIMEOUT),
            Map.entry("57P01", CONNECTION), Map.entry("57P02", CONNECTION), Map.entry("57P03", CONNECTION),
            Map.entry("57P05", CONNECTION), Map.entry("25P03", CONNECTION), Map.entry("3D000", CONNECTION));

    /**
     * Looks up a SQLState: first exactly, then by class ({@code 08} connection, {@code 28} authorization,
     * {@code 53}/{@code 54} resources). Class {@code 42} as a whole is left to {@link #byMessage} and then
     * {@link #byStateClassFallback}, because drivers use {@code 42000} for everything from a typo to a
     * missing grant.
     *
     * @return the category, or null
     */
    static ErrorCategory bySqlState(String state, String lowerMessage) {
        if (state == null || state.length() != 5) {
            return null;
        }
        if (state.equals("42883") && lowerMessage.contains("operator does not exist")) {
            // PostgreSQL: the operator exists, not for these operand types (text = integer)
            return TYPE_MISMATCH;
        }
        ErrorCategory exact = STATES.get(state);
        if (exact != null) {
            return exact;
        }
        switch (state.substring(0, 2)) {
            case "08": return CONNECTION;
            case "28": return PERMISSION_DENIED;
            case "53": case "54": return RESOURCE_LIMIT;
            default: return null;
        }
    }

    /**
     * The last resort once codes and messages said nothing: class {@code 42} (syntax error or access rule
     * violation) is taken as a syntax error.
     *
     * @return the category, or null
     */
    static ErrorCategory byStateClassFallback(String state) {
        return state != null && state.startsWith("42") ? SYNTAX_ERROR : null;
    }

    // ---------------------------------------------------------------- messages

    private record MessageRule(Pattern pattern, ErrorCategory category) {
    }

    /**
     * Message patterns, most specific first: environment faults before SQL faults (a timeout message may
     * quote SQL; a lost connection before a timeout, since "connection timed out" is the former), and syntax last because several engines say "syntax" for every 42000.
     */
    private static final List<MessageRule> MESSAGES = List.of(
            rule(CONNECTION, "connection (refused|reset|is closed|closed|was closed|lost|failure|attempt failed|timed out)"
                    + "|connect timed out"
                    + "|communications link failure|broken pipe|could not connect|unable to connect"
                    + "|server closed the connection|server has gone away|lost connection|not connected"
                    + "|end-of-file on communication channel|socket|unknown host|no route to host"
                    + "|database is closed|unable to open database"),
            rule(TIMEOUT, "timeout|timed out|max_statement_time|maximum statement execution time"
                    + "|query execution was interrupted|canceling statement|statement was canceled"
                    + "|user requested cancel|^interrupted$|operation cancell?ed"),
            rule(PERMISSION_DENIED, "permission denied|access denied|not authori[sz]ed|insufficient privilege"
                    + "|not enough rights|command denied|readonly database|read-only|read only"
                    + "|authentication failed|password authentication"),
            rule(RESOURCE_LIMIT, "out of memory|disk full|database or disk is full|no space left|too many connections"
                    + "|memory limit|could not extend|out of shared memory|resource limit|unable to extend"
                    + "|string or blob too big|too many (open files|tables)"),
            rule(AMBIGUOUS_COLUMN, "ambiguous column|column reference .* is ambiguous|is ambiguous"
                    + "|ambiguously defined"),
            rule(TABLE_NOT_FOUND, "no such table|table or view (does not exist|not found)|table .* (doesn't|does not) "
                    + "exist|relation .* does not exist|invalid object name|unknown table|table .* not found"
                    + "|missing from-clause entry|schema .* (does not exist|not found)"),
            rule(COLUMN_NOT_FOUND, "no such column|unknown column|column .* (does not exist|not found)"
                    + "|invalid column name|invalid identifier|could not be bound|cannot join using column"
                    + "|order by term out of range"),
            rule(GROUPING_ERROR, "misuse of aggregate|aggregate functions? (are|is) not allowed|group by clause is "
                    + "required|having clause on a non-aggregate|must appear in the group by|must be in the group by"
                    + "|not a group by expression|not a single-group group function|invalid use of group function"
                    + "|not contained in either an aggregate function or the group by|cannot be nested"
                    + "|invalid use of aggregate"),
            rule(FUNCTION_NOT_FOUND, "no such function|function .* (does not exist|not found)|unknown function"
                    + "|is not a recognized built-in function|wrong number of arguments|incorrect parameter count"
                    + "|invalid number of arguments"),
            rule(TYPE_MISMATCH, "datatype mismatch|type mismatch|operator does not exist|invalid input syntax for"
                    + "|data conversion error|conversion failed|cannot be cast|inconsistent datatypes"
                    + "|invalid number|cannot compare|incompatible|truncated incorrect|illegal mix of collations"),
            rule(SYNTAX_ERROR, "syntax error|syntax|parse error|incorrect syntax|incomplete input|unrecognized token"
                    + "|missing expression|not properly ended|sub-?select returns|subquery must return only one"
                    + "|do not have the same number of result columns|same number of columns|different number of"
                    + " columns|must have an alias|unexpected end|row value misused"));

    private static MessageRule rule(ErrorCategory category, String regex) {
        return new MessageRule(Pattern.compile(regex), category);
    }

    /**
     * Matches message patterns.
     *
     * @param lowerMessage the message in lower case, with any SQL text the driver appended removed
     * @return the category, or null
     */
    static ErrorCategory byMessage(String lowerMessage) {
        if (lowerMessage.isEmpty()) {
            return null;
        }
        for (MessageRule r : MESSAGES) {
            if (r.pattern().matcher(lowerMessage).find()) {
                return r.category();
            }
        }
        return null;
    }

    /**
     * Strips what a driver wraps around the database's own words: H2's trailing
     * {@code "; SQL statement: …"}, sqlite-jdbc's {@code "[SQLITE_ERROR] SQL error or missing database (…)"}
     * and MariaDB Connector/J's {@code "(conn=12) "}, so that patterns do not match the echoed SQL or the
     * wrapper text ("missing database" is not a missing database).
     */
    static String essence(String message) {
        if (message == null) {
            return "";
        }
        String m = message;
        int sql = m.indexOf("; SQL statement:");
        if (sql >= 0) {
            m = m.substring(0, sql);
        }
        if (m.startsWith("[SQLITE_")) {
            int open = m.indexOf('(');
            int close = m.lastIndexOf(')');
            m = open >= 0 && close > open ? m.substring(open + 1, close) : m.substring(m.indexOf(']') + 1);
        }
        int line = m.indexOf("\nLINE ");
        if (line >= 0) {
            m = m.substring(0, line); // DuckDB echoes the statement under the message
        }
        if (m.startsWith("(conn=")) {
            int end = m.indexOf(") ");
            if (end > 0) {
                m = m.substring(end + 2);
            }
        }
        return m.trim();
    }

}
