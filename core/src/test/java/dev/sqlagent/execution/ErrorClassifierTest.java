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
import static dev.sqlagent.execution.ErrorCategory.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The classifier against documented codes. SQL Server and Oracle have no server here, so their codes
 * and messages are taken from the vendors' error references; the other engines are also tested live.
 */
class ErrorClassifierTest {

    private final ErrorClassifier classifier = ErrorClassifier.standard();

    @ParameterizedTest(name = "SQL Server {0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "208|TABLE_NOT_FOUND|Invalid object name 'dbo.Orderz'.",
        "207|COLUMN_NOT_FOUND|Invalid column name 'nmae'.",
        "4104|COLUMN_NOT_FOUND|The multi-part identifier \"t9.id\" could not be bound.",
        "209|AMBIGUOUS_COLUMN|Ambiguous column name 'id'.",
        "102|SYNTAX_ERROR|Incorrect syntax near 'FORM'.",
        "156|SYNTAX_ERROR|Incorrect syntax near the keyword 'FROM'.",
        "8120|GROUPING_ERROR|Column 'e.name' is invalid in the select list because it is not contained in either an aggregate function or the GROUP BY clause.",
        "130|GROUPING_ERROR|Cannot perform an aggregate function on an expression containing an aggregate or a subquery.",
        "195|FUNCTION_NOT_FOUND|'STRFTIME' is not a recognized built-in function name.",
        "4121|FUNCTION_NOT_FOUND|Cannot find either column \"dbo\" or the user-defined function or aggregate \"dbo.f\", or the name is ambiguous.",
        "245|TYPE_MISMATCH|Conversion failed when converting the varchar value 'abc' to data type int.",
        "8114|TYPE_MISMATCH|Error converting data type varchar to numeric.",
        "229|PERMISSION_DENIED|The SELECT permission was denied on the object 'salary', database 'hr', schema 'dbo'.",
        "230|PERMISSION_DENIED|The SELECT permission was denied on the column 'ssn' of the object 'people'.",
        "18456|PERMISSION_DENIED|Login failed for user 'reader'.",
        "1222|TIMEOUT|Lock request time out period exceeded.",
        "701|RESOURCE_LIMIT|There is insufficient system memory in resource pool 'default' to run this query.",
        "9002|RESOURCE_LIMIT|The transaction log for database 'tempdb' is full due to 'ACTIVE_TRANSACTION'.",
        "1105|RESOURCE_LIMIT|Could not allocate space for object in database 'tempdb' because the 'PRIMARY' filegroup is full.",
        "40613|CONNECTION|Database 'db' on server 'srv' is not currently available.",
    })
    void sqlServerDocumentedCodes(int code, ErrorCategory expected, String message) {
        assertThat(classifier.classify(Dialect.SQLSERVER, "S0001", code, message)).isEqualTo(expected);
    }

    @Test
    void sqlServerDriverTimeoutAndLostConnectionAreEnvironmental() {
        // mssql-jdbc reports its own query timeout with SQLState HY008 and no server number
        assertThat(classifier.classify(Dialect.SQLSERVER, "HY008", 0, "The query has timed out.")).isEqualTo(TIMEOUT);
        assertThat(classifier.classify(Dialect.SQLSERVER, "08S01", 0,
                "The connection is closed.")).isEqualTo(CONNECTION);
    }

    @ParameterizedTest(name = "ORA-{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "942|TABLE_NOT_FOUND|ORA-00942: table or view does not exist",
        "904|COLUMN_NOT_FOUND|ORA-00904: \"T1\".\"NMAE\": invalid identifier",
        "918|AMBIGUOUS_COLUMN|ORA-00918: column ambiguously defined",
        "900|SYNTAX_ERROR|ORA-00900: invalid SQL statement",
        "933|SYNTAX_ERROR|ORA-00933: SQL command not properly ended",
        "936|SYNTAX_ERROR|ORA-00936: missing expression",
        "979|GROUPING_ERROR|ORA-00979: not a GROUP BY expression",
        "937|GROUPING_ERROR|ORA-00937: not a single-group group function",
        "934|GROUPING_ERROR|ORA-00934: group function is not allowed here",
        "909|FUNCTION_NOT_FOUND|ORA-00909: invalid number of arguments",
        "1722|TYPE_MISMATCH|ORA-01722: invalid number",
        "932|TYPE_MISMATCH|ORA-00932: inconsistent datatypes: expected NUMBER got CHAR",
        "1031|PERMISSION_DENIED|ORA-01031: insufficient privileges",
        "1013|TIMEOUT|ORA-01013: user requested cancel of current operation",
        "3113|CONNECTION|ORA-03113: end-of-file on communication channel",
        "3114|CONNECTION|ORA-03114: not connected to ORACLE",
        "17002|CONNECTION|IO Error: Connection reset",
        "1652|RESOURCE_LIMIT|ORA-01652: unable to extend temp segment by 128 in tablespace TEMP",
        "4031|RESOURCE_LIMIT|ORA-04031: unable to allocate 4160 bytes of shared memory",
    })
    void oracleDocumentedCodes(int code, ErrorCategory expected, String message) {
        assertThat(classifier.classify(Dialect.ORACLE, "42000", code, message)).isEqualTo(expected);
    }

    @Test
    void oracleUnknownFunctionIsReportedAsInvalidIdentifierAndStaysCorrectable() {
        ErrorCategory c = classifier.classify(Dialect.ORACLE, "42000", 904, "ORA-00904: \"STRFTIME\": invalid identifier");
        assertThat(c).isEqualTo(COLUMN_NOT_FOUND);
        assertThat(c.correctable()).isTrue();
    }

    @ParameterizedTest(name = "MySQL/MariaDB {0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "1146|42S02|TABLE_NOT_FOUND",
        "1054|42S22|COLUMN_NOT_FOUND",
        "1052|23000|AMBIGUOUS_COLUMN",
        "1064|42000|SYNTAX_ERROR",
        "1055|42000|GROUPING_ERROR",
        "1056|42000|GROUPING_ERROR",
        "1140|42000|GROUPING_ERROR",
        "1111|HY000|GROUPING_ERROR",
        "1305|42000|FUNCTION_NOT_FOUND",
        "1582|42000|FUNCTION_NOT_FOUND",
        "1267|HY000|TYPE_MISMATCH",
        "1142|42000|PERMISSION_DENIED",
        "1143|42000|PERMISSION_DENIED",
        "1044|42000|PERMISSION_DENIED",
        "1045|28000|PERMISSION_DENIED",
        "1792|25006|PERMISSION_DENIED",
        "3024|HY000|TIMEOUT",
        "1969|70100|TIMEOUT",
        "1317|70100|TIMEOUT",
        "2013|HY000|CONNECTION",
        "2006|HY000|CONNECTION",
        "1927|08S01|CONNECTION",
        "1040|08004|RESOURCE_LIMIT",
        "1041|HY000|RESOURCE_LIMIT",
        "1114|HY000|RESOURCE_LIMIT",
        "1104|42000|RESOURCE_LIMIT",
    })
    void mysqlFamilyDocumentedCodes(int code, String state, ErrorCategory expected) {
        assertThat(classifier.classify(Dialect.MYSQL, state, code, "")).isEqualTo(expected);
        assertThat(classifier.classify(Dialect.MARIADB, state, code, "")).isEqualTo(expected);
    }

    @ParameterizedTest(name = "PostgreSQL {0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "42P01|TABLE_NOT_FOUND|ERROR: relation \"student\" does not exist",
        "42703|COLUMN_NOT_FOUND|ERROR: column \"model\" does not exist",
        "42702|AMBIGUOUS_COLUMN|ERROR: column reference \"name\" is ambiguous",
        "42601|SYNTAX_ERROR|ERROR: syntax error at or near \"DESC\"",
        "42803|GROUPING_ERROR|ERROR: column \"t1.name\" must appear in the GROUP BY clause or be used in an aggregate function",
        "42883|FUNCTION_NOT_FOUND|ERROR: function strftime(unknown, text) does not exist",
        "42883|TYPE_MISMATCH|ERROR: operator does not exist: bigint = text",
        "42804|TYPE_MISMATCH|ERROR: argument of WHERE must be type boolean, not type bigint",
        "22P02|TYPE_MISMATCH|ERROR: invalid input syntax for type bigint: \"France\"",
        "42501|PERMISSION_DENIED|ERROR: permission denied for table singer",
        "25006|PERMISSION_DENIED|ERROR: cannot execute INSERT in a read-only transaction",
        "57014|TIMEOUT|ERROR: canceling statement due to statement timeout",
        "55P03|TIMEOUT|ERROR: canceling statement due to lock timeout",
        "08006|CONNECTION|An I/O error occurred while sending to the backend.",
        "08001|CONNECTION|Connection to 127.0.0.1:1 refused.",
        "57P01|CONNECTION|FATAL: terminating connection due to administrator command",
        "53200|RESOURCE_LIMIT|ERROR: out of memory",
        "53100|RESOURCE_LIMIT|ERROR: could not extend file: No space left on device",
        "53300|RESOURCE_LIMIT|FATAL: sorry, too many clients already",
        "54001|RESOURCE_LIMIT|ERROR: stack depth limit exceeded",
    })
    void postgresDocumentedStates(String state, ErrorCategory expected, String message) {
        assertThat(classifier.classify(Dialect.POSTGRESQL, state, 0, message)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "SQLite {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "1|[SQLITE_ERROR] SQL error or missing database (no such table: student)|TABLE_NOT_FOUND",
        "1|[SQLITE_ERROR] SQL error or missing database (no such column: T2.name)|COLUMN_NOT_FOUND",
        "1|[SQLITE_ERROR] SQL error or missing database (ambiguous column name: student_id)|AMBIGUOUS_COLUMN",
        "1|[SQLITE_ERROR] SQL error or missing database (near \"DESC\": syntax error)|SYNTAX_ERROR",
        "1|[SQLITE_ERROR] SQL error or missing database (misuse of aggregate function count())|GROUPING_ERROR",
        "1|[SQLITE_ERROR] SQL error or missing database (misuse of aggregate: sum())|GROUPING_ERROR",
        "1|[SQLITE_ERROR] SQL error or missing database (no such function: foo)|FUNCTION_NOT_FOUND",
        "1|[SQLITE_ERROR] SQL error or missing database (wrong number of arguments to function abs())|FUNCTION_NOT_FOUND",
        "20|[SQLITE_MISMATCH] Data type mismatch (datatype mismatch)|TYPE_MISMATCH",
        "8|[SQLITE_READONLY] Attempt to write a readonly database (attempt to write a readonly database)|PERMISSION_DENIED",
        "9|[SQLITE_INTERRUPT] Operation terminated by sqlite3_interrupt() (interrupted)|TIMEOUT",
        "5|[SQLITE_BUSY] The database file is locked (database is locked)|TIMEOUT",
        "14|[SQLITE_CANTOPEN] Unable to open the database file (unable to open database file)|CONNECTION",
        "13|[SQLITE_FULL] Insertion failed because database is full (database or disk is full)|RESOURCE_LIMIT",
        "7|[SQLITE_NOMEM] A malloc() failed (out of memory)|RESOURCE_LIMIT",
        "266|[SQLITE_IOERR_READ] disk I/O error (disk I/O error)|CONNECTION",
    })
    void sqliteResultCodesAndMessages(int code, String message, ErrorCategory expected) {
        assertThat(classifier.classify(Dialect.SQLITE, null, code, message)).isEqualTo(expected);
    }

    @Test
    void sqliteWrapperTextIsNotMistakenForAMissingDatabase() {
        assertThat(classifier.classify(Dialect.SQLITE, null, 1,
                "[SQLITE_ERROR] SQL error or missing database (some brand new complaint)")).isEqualTo(UNKNOWN);
    }

    @Test
    void h2CodesWinOverTheSqlTextItEchoes() {
        // the echoed SQL mentions GROUP BY and a timeout column; the code says table not found
        assertThat(classifier.classify(Dialect.H2, "42S02", 42102,
                "Table \"NOPE\" not found; SQL statement: select timeout from nope group by 1 [42102-252]"))
                .isEqualTo(TABLE_NOT_FOUND);
        assertThat(classifier.classify(Dialect.H2, "90016", 90016, "Column \"A\" must be in the GROUP BY list"))
                .isEqualTo(GROUPING_ERROR);
        assertThat(classifier.classify(Dialect.H2, "90096", 90096, "Not enough rights for object \"PUBLIC.T\""))
                .isEqualTo(PERMISSION_DENIED);
    }

    @Test
    void genericDialectUsesSqlStateClassesThenMessages() {
        assertThat(classifier.classify(Dialect.GENERIC, "08S01", 0, "x")).isEqualTo(CONNECTION);
        assertThat(classifier.classify(Dialect.GENERIC, "28000", 0, "x")).isEqualTo(PERMISSION_DENIED);
        assertThat(classifier.classify(Dialect.GENERIC, "HYT00", 0, "x")).isEqualTo(TIMEOUT);
        assertThat(classifier.classify(Dialect.GENERIC, "53000", 0, "x")).isEqualTo(RESOURCE_LIMIT);
        assertThat(classifier.classify(Dialect.GENERIC, "42000", 0, "Unknown column 'x'")).isEqualTo(COLUMN_NOT_FOUND);
        assertThat(classifier.classify(Dialect.GENERIC, "42000", 0, "nothing to go on")).isEqualTo(SYNTAX_ERROR);
        assertThat(classifier.classify(Dialect.GENERIC, null, 0, null)).isEqualTo(UNKNOWN);
    }

    @Test
    void vendorCodesOfOneDialectDoNotLeakIntoAnother() {
        // 208 is SQL Server's "invalid object name" but means nothing to PostgreSQL
        assertThat(classifier.classify(Dialect.POSTGRESQL, null, 208, "")).isEqualTo(UNKNOWN);
    }

    @Test
    void causeChainGivesTheMostSpecificSqlState() {
        SQLException specific = new SQLException("relation \"x\" does not exist", "42P01");
        SQLException wrapper = new SQLException("query failed", null, 0, specific);
        assertThat(classifier.classify(Dialect.POSTGRESQL, wrapper)).isEqualTo(TABLE_NOT_FOUND);
        assertThat((Object) classifier.diagnose(Dialect.POSTGRESQL, wrapper).source()).isSameAs(specific);
    }

    @Test
    void nextExceptionIsSearchedToo() {
        SQLException top = new SQLException("Batch entry 0 was aborted", "HY000");
        top.setNextException(new SQLException("column \"q\" does not exist", "42703"));
        assertThat(classifier.classify(Dialect.POSTGRESQL, top)).isEqualTo(COLUMN_NOT_FOUND);
    }

    @Test
    void timeoutExceptionTypeWithoutCodesIsTimeout() {
        assertThat(classifier.classify(Dialect.GENERIC, new SQLTimeoutException("took too long"))).isEqualTo(TIMEOUT);
    }

    @Test
    void ioExceptionInTheChainIsALostConnection() {
        SQLException e = new SQLException("something failed", null, 0, new ConnectException("Connection refused"));
        assertThat(classifier.classify(Dialect.GENERIC, e)).isEqualTo(CONNECTION);
    }

    @Test
    void environmentalCategoriesAreNeverCorrectable() {
        for (ErrorCategory c : ErrorCategory.values()) {
            if (c.environmental()) {
                assertThat(c.correctable()).as(c.name()).isFalse();
            }
        }
        assertThat(AMBIGUOUS_COLUMN.correctable()).isTrue();
        assertThat(FUNCTION_NOT_FOUND.correctable()).isTrue();
        assertThat(TYPE_MISMATCH.correctable()).isTrue();
    }
}
