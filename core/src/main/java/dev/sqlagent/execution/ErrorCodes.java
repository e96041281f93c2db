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
import java.util.HashMap;
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

    /** H2's {@code org.h2.api.ErrorCode} constants. */
    private static final Map<Integer, ErrorCategory> H2 = table(
            TABLE_NOT_FOUND, new int[] {42102, 42103, 42104, 90079},
            COLUMN_NOT_FOUND, new int[] {42122, 90068, 90157},
            AMBIGUOUS_COLUMN, new int[] {90059},
            SYNTAX_ERROR, new int[] {42000, 42001, 21002, 50004, 90122},
            GROUPING_ERROR, new int[] {90016, 90054, 90145},
            FUNCTION_NOT_FOUND, new int[] {90022, 7001, 90087, 90132, 90136, 90139},
            TYPE_MISMATCH, new int[] {22003, 22004, 22007, 22018, 90003, 90004, 90015, 90110},
            PERMISSION_DENIED, new int[] {28000, 90040, 90096, 90097, 90134},
            TIMEOUT, new int[] {57014, 50200},
            CONNECTION, new int[] {90007, 90013, 90020, 90028, 90031, 90067, 90098, 90121, 90146, 90149},
            RESOURCE_LIMIT, new int[] {90108});

    /**
     * SQLite primary result codes (the low byte of an extended code). {@code SQLITE_ERROR} (1) says only
     * "SQL error" and is left to the message.
     */
    private static final Map<Integer, ErrorCategory> SQLITE = table(
            PERMISSION_DENIED, new int[] {3 /* PERM */, 8 /* READONLY */, 23 /* AUTH */},
            TIMEOUT, new int[] {5 /* BUSY */, 6 /* LOCKED */, 9 /* INTERRUPT */},
            RESOURCE_LIMIT, new int[] {7 /* NOMEM */, 13 /* FULL */, 18 /* TOOBIG */},
            CONNECTION, new int[] {10 /* IOERR */, 14 /* CANTOPEN */, 26 /* NOTADB */},
            TYPE_MISMATCH, new int[] {20 /* MISMATCH */});

    /** MySQL and MariaDB server error codes, and the client codes (2xxx) their drivers report. */
    private static final Map<Integer, ErrorCategory> MYSQL = table(
            TABLE_NOT_FOUND, new int[] {1146, 1109, 1051, 1049},
            COLUMN_NOT_FOUND, new int[] {1054, 1247},
            AMBIGUOUS_COLUMN, new int[] {1052},
            SYNTAX_ERROR, new int[] {1064, 1149, 1248, 1222, 1241, 1060, 1066, 1221, 1235},
            GROUPING_ERROR, new int[] {1055, 1056, 1140, 1111, 1463},
            FUNCTION_NOT_FOUND, new int[] {1305, 1582, 1583, 1584, 1318, 1630},
            TYPE_MISMATCH, new int[] {1267, 1270, 1271, 1292, 1366, 1690, 3780},
            PERMISSION_DENIED, new int[] {1142, 1143, 1044, 1045, 1227, 1370, 1698, 1792, 1290, 1836},
            TIMEOUT, new int[] {3024, 1969, 1317, 1205},
            CONNECTION, new int[] {2002, 2003, 2005, 2006, 2013, 2055, 1053, 1152, 1158, 1159, 1160, 1161,
                1081, 1927, 4031},
            RESOURCE_LIMIT, new int[] {1040, 1041, 1114, 1104, 1037, 1038, 1203, 1226, 1021, 1135, 1206,
                1436, 3170, 1907, 1197});

    /** Microsoft SQL Server message numbers. */
    private static final Map<Integer, ErrorCategory> SQLSERVER = table(
            TABLE_NOT_FOUND, new int[] {208, 15151},
            COLUMN_NOT_FOUND, new int[] {207, 4104, 1911},
            AMBIGUOUS_COLUMN, new int[] {209},
            SYNTAX_ERROR, new int[] {102, 156, 105, 170, 319, 8155, 1038, 205, 116, 4145},
            GROUPING_ERROR, new int[] {8120, 8121, 130, 147, 144, 4109},
            FUNCTION_NOT_FOUND, new int[] {195, 4121, 174, 189, 8144, 2812},
            TYPE_MISMATCH, new int[] {245, 8114, 206, 402, 241, 8115, 8116, 257, 529},
            PERMISSION_DENIED, new int[] {229, 230, 262, 297, 300, 916, 18456, 3906},
            TIMEOUT, new int[] {1222},
            CONNECTION, new int[] {233, 10053, 10054, 10060, 10061, 4060, 40613, 6005},
            RESOURCE_LIMIT, new int[] {701, 1105, 9002, 1204, 8623, 8645, 40501, 10928, 10929, 802});

    /** Oracle {@code ORA-nnnnn} numbers, and the Oracle JDBC driver's own 17xxx codes. */
    private static final Map<Integer, ErrorCategory> ORACLE = table(
            TABLE_NOT_FOUND, new int[] {942, 4043},
            // ORA-00904 "invalid identifier" is also what an unknown function gives; it stays a column
            COLUMN_NOT_FOUND, new int[] {904},
            AMBIGUOUS_COLUMN, new int[] {918},
            SYNTAX_ERROR, new int[] {900, 905, 906, 907, 911, 917, 920, 921, 923, 924, 928, 933, 936, 969,
                1756, 1789, 32034},
            GROUPING_ERROR, new int[] {979, 937, 934, 935, 30483},
            FUNCTION_NOT_FOUND, new int[] {909, 6553, 6576},
            TYPE_MISMATCH, new int[] {1722, 932, 1858, 1861, 1840, 1843, 1847, 1830, 1790},
            PERMISSION_DENIED, new int[] {1031, 1017, 1045, 16000, 1035},
            TIMEOUT, new int[] {1013, 54, 30006, 56735},
            CONNECTION, new int[] {3113, 3114, 3135, 12541, 12514, 12170, 12537, 1033, 1034, 1089, 2396,
                28, 17002, 17008, 17410},
            RESOURCE_LIMIT, new int[] {1652, 4031, 4030, 1653, 1654, 18, 20, 2391, 2393, 2395, 1536, 30036,
                1628});

    /**
     * Looks up a vendor code.
     *
     * @return the category, or null when the dialect has no table or the code is not in it
     */
    static ErrorCategory byVendorCode(Dialect dialect, int code) {
        if (code == 0) {
            return null;
        }
        switch (dialect) {
            case H2: return H2.get(code);
            case SQLITE: return SQLITE.get(code & 0xFF);
            case MYSQL: case MARIADB: return MYSQL.get(code);
            case SQLSERVER: return SQLSERVER.get(code);
            case ORACLE: return ORACLE.get(Math.abs(code));
            default: return null;
        }
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

    // ---------------------------------------------------------------- DuckDB

    /**
     * DuckDB's rules: its driver sets neither SQLState nor vendor code, and every message starts with the
     * error's kind ({@code Catalog Error:}, {@code Binder Error:}, {@code Parser Error:}, {@code Conversion
     * Error:}, {@code INTERRUPT Error:}, …). Read from the messages real wrong SQL gets from DuckDB 2.0
     * (the Spider predictions replayed on DuckDB); the generic patterns still apply after these.
     */
    private static final List<MessageRule> DUCKDB = List.of(
            rule(TIMEOUT, "^interrupt error"),
            rule(PERMISSION_DENIED, "^permission error|read-only mode|cannot write to database|attached in read-only"
                    + "|the configuration has been locked"),
            rule(RESOURCE_LIMIT, "^out of memory error"),
            rule(AMBIGUOUS_COLUMN, "^binder error: ambiguous reference"),
            rule(TABLE_NOT_FOUND, "^catalog error: (table|view|schema|catalog|table or view) with name .* does not exist"
                    + "|^binder error: referenced table .* not found|^catalog error: .*: no catalog \\+ schema"),
            // an operator over the wrong types ('+(VARCHAR, INTEGER_LITERAL)'): the operator exists, not for these
            // operands, as PostgreSQL's "operator does not exist" (a named function, sum(VARCHAR), stays below)
            rule(TYPE_MISMATCH, "^binder error: no function matches the given name and argument types '[^\\w\\s(']+\\("),
            rule(FUNCTION_NOT_FOUND, "^catalog error: \\w+ (function|macro|function or macro) with name .* does "
                    + "not exist|^binder error: no function matches"),
            rule(COLUMN_NOT_FOUND, "^binder error: referenced column .* not found|does not have a column named"
                    + "|^binder error: column .* does not exist|^binder error: values list .* does not have a column"),
            rule(GROUPING_ERROR, "must appear in the group by|aggregate function calls cannot be nested"
                    + "|^binder error: .*aggregates? .*(not allowed|cannot)|window functions are not allowed"
                    + "|group by clause cannot contain aggregates"),
            rule(TYPE_MISMATCH, "^conversion error|^binder error: cannot compare values|^binder error: cannot mix"
                    + "|could not convert|^binder error: .*implicit cast"),
            rule(SYNTAX_ERROR, "^parser error|more than one row returned by a subquery"
                    + "|^binder error: set operations can only apply to expressions with the same number"));

    /**
     * DuckDB's message rules.
     *
     * @param lowerEssence the message's essence, lower case
     * @return the category, or null
     */
    static ErrorCategory duckdb(String lowerEssence) {
        for (MessageRule r : DUCKDB) {
            if (r.pattern().matcher(lowerEssence).find()) {
                return r.category();
            }
        }
        return null;
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

    private static Map<Integer, ErrorCategory> table(Object... categoryThenCodes) {
        Map<Integer, ErrorCategory> map = new HashMap<>();
        for (int i = 0; i < categoryThenCodes.length; i += 2) {
            ErrorCategory category = (ErrorCategory) categoryThenCodes[i];
            for (int code : (int[]) categoryThenCodes[i + 1]) {
                ErrorCategory previous = map.put(code, category);
                if (previous != null) {
                    throw new IllegalStateException("code " + code + " listed as " + previous + " and " + category);
                }
            }
        }
        return Map.copyOf(map);
    }
}
