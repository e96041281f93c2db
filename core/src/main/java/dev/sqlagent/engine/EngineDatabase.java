package dev.sqlagent.engine;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.DatabaseObjects;
import dev.sqlagent.guard.FunctionPolicy;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.engine.PrivilegeReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The database side of an {@link Engine}: how the library reads a statement's plan (the engine check), runs it
 * read-only within its bounds, reads its errors, audits a login's privileges and reads its catalog.
 *
 * <p>Every method has the answer of an engine the library knows nothing particular about (no engine check, no
 * server-side timeout, the driver's own cancel, …), so a new engine implements only what it does differently.
 * Shared code ({@code dev.sqlagent.guard.engine}, {@code dev.sqlagent.execution}, …) calls these hooks where
 * engines differ and never names an engine.
 */
public interface EngineDatabase {

    // ---- the engine check ----

    /**
     * A new reader of this engine's plans, for one engine check (a reader may keep what it learnt of the
     * catalog between statements).
     *
     * @return the reader, or empty when the engine check cannot ask this engine for its plan
     */
    default Optional<PlanReader> planReader() {
        return Optional.empty();
    }

    /**
     * Whether the engine check may plan statements with a second login of the same database, that
     * {@linkplain #prepareAsRunLogin prepares} each statement with the run login first (MariaDB and MySQL,
     * whose optimizer trace needs table-level grants the run login may lack).
     *
     * @return whether a planning login is accepted
     */
    default boolean plansWithSecondLogin() {
        return false;
    }

    /**
     * Resolves a statement with the run login, reading no row, before a {@linkplain #plansWithSecondLogin
     * planning login} explains it: a statement naming what the run login may not read fails here with the
     * run login's own error.
     *
     * @param run the run login's connection
     * @param statement the statement
     * @param seconds cap on each round trip
     * @throws SQLException the run login's error for the statement
     * @throws UnsupportedOperationException if the engine takes no planning login
     */
    default void prepareAsRunLogin(Connection run, SqlStatement statement, int seconds) throws SQLException {
        throw new UnsupportedOperationException("no planning login on this engine");
    }

    /**
     * What must be equal in the run login's and the planning login's sessions for the plan to stand for the
     * run (the database and SQL mode, on MariaDB).
     *
     * @param c a connection
     * @param seconds cap on the round trip
     * @return the session, printed
     * @throws SQLException if it cannot be read
     * @throws UnsupportedOperationException if the engine takes no planning login
     */
    default String planningSession(Connection c, int seconds) throws SQLException {
        throw new UnsupportedOperationException("no planning login on this engine");
    }

    /**
     * Names the engine's plan gives functions it was called by another name, or calls for syntax the guard
     * checks as syntax (marked by {@code ""}): an engine name is allowed when it, or a name listed for it,
     * is allowed.
     *
     * @return lower-case engine name to the names it stands for
     */
    default Map<String, List<String>> functionAliases() {
        return Map.of();
    }

    /**
     * Whether this engine's plan reading names the database's own functions by identity (so only those it
     * found may be allowed by name), rather than naming none (so any the policy allows may be).
     *
     * @return whether own functions are found by identity
     */
    default boolean readsOwnFunctionsByIdentity() {
        return false;
    }

    /**
     * Decides a function name the engine's reader marked as a kind of its own (SQLite's FTS5 auxiliary
     * functions bound to a cursor's row).
     *
     * @param name the name as the reader printed it, lower case
     * @param functions the policy's functions
     * @param dialect the dialect
     * @return the decision, or empty when the name carries no mark of this engine
     */
    default Optional<Boolean> markedFunctionAllowed(String name, FunctionPolicy functions, Dialect dialect) {
        return Optional.empty();
    }

    // ---- names on a session ----

    /**
     * Whether a table has several names on one session that the policy's entries must all cover (Trino:
     * {@code catalog.schema.table}, and {@code schema.table} and {@code table} for the session's catalog and
     * schema); when true, the agent resolves its policy once at build with {@link #sessionNames}.
     *
     * @return whether names bind by the session
     */
    default boolean bindsNamesBySession() {
        return false;
    }

    /**
     * The policy with each table entry (allowed, with denied columns, row-filtered) under every name that binds
     * the same table on this connection's session, and no other: the guard compares the names a statement
     * writes with the policy's, so each spelling of one table must carry the same rules.
     *
     * @param c a connection as the agent's login, in the session the agent's statements run in
     * @param policy the host's policy
     * @return the policy with the session's names
     * @throws SQLException if the session cannot be read
     */
    default GuardPolicy sessionNames(Connection c, GuardPolicy policy) throws SQLException {
        return policy;
    }

    // ---- connections and the network ----

    /**
     * Whether the engine is reached over the network, so every read of a connection needs a network timeout
     * (an in-process engine has none to set).
     *
     * @return whether it is networked
     */
    default boolean networked() {
        return false;
    }

    /**
     * The prefixes of the class names of this engine's JDBC driver ({@code org.h2.}), by which an exception
     * raised before any connection could be asked for its database is still read as this engine's.
     *
     * @return the prefixes, empty when the engine is known by no driver
     */
    default List<String> driverPackages() {
        return List.of();
    }

    // ---- errors ----

    /**
     * The category of one of this engine's vendor error codes.
     *
     * @param code the driver's vendor code, not zero
     * @return the category, or null when the engine has no table or the code is not in it
     */
    default ErrorCategory errorOfVendorCode(int code) {
        return null;
    }

    /**
     * The category of an error this engine says only in its message, read before the vendor code and the
     * SQLState (DuckDB's driver sets neither); the generic message patterns still apply after it.
     *
     * @param lowerEssence the message's essence, lower case
     * @return the category, or null
     */
    default ErrorCategory errorOfMessage(String lowerEssence) {
        return null;
    }

    // ---- catalog reading ----

    /**
     * Reads the functions, operators, casts and types the database defines itself ({@code DatabaseObjects}),
     * which can take a built-in's name and run SQL of their own.
     *
     * @param s a statement on a connection to the database
     * @param routines where its routines go
     * @param types where its types go
     * @throws SQLException if the catalog cannot be read
     */
    default void readObjects(Statement s, List<DatabaseObjects.Routine> routines, List<DatabaseObjects.Type> types)
            throws SQLException {
        // an engine that cannot define a function in SQL, or that the library knows nothing particular about
    }

    // ---- the library's own tables (case sink, fix store) ----

    /**
     * The insert of one row that does nothing when a row of its key is there already, so that a retried
     * write is harmless.
     *
     * @param table the table
     * @param columns its columns, joined by commas
     * @param values the values (placeholders), joined by commas
     * @param key the key column
     * @return the statement, or null when the engine has none (a plain insert is used, one row at a time)
     */
    default String insertIfAbsent(String table, String columns, String values, String key) {
        return null;
    }

    /**
     * The one-statement insert of a row that, when a row of its key is there, updates some of its columns.
     *
     * @param insert the plain {@code INSERT INTO … VALUES (…)}
     * @param key the key column
     * @param updated the columns to update from the new row
     * @return the statement, or null when the engine has none (update, then insert)
     */
    default String upsert(String insert, String key, List<String> updated) {
        return null;
    }

    /**
     * Whether a statement's time cap is better left to the connection's network timeout than to the driver,
     * whose cancel needs a second connection (PostgreSQL's).
     *
     * @return whether to set no driver timeout
     */
    default boolean driverCancelNeedsSecondConnection() {
        return false;
    }

    /**
     * Whether a write the engine's optimistic concurrency refused (a concurrent writer of the same row) is
     * written again, in a new transaction (DuckDB).
     *
     * @return whether write conflicts are retried
     */
    default boolean retriesWriteConflicts() {
        return false;
    }

    /** {@return the column type of long text} */
    default String longTextType() {
        return "TEXT";
    }

    /** {@return whether the engine has {@code CREATE INDEX IF NOT EXISTS}} */
    default boolean createsIndexIfNotExists() {
        return true;
    }

    // ---- the privilege audit ----

    /**
     * Audits what the login of a connection can read and write beyond the policy, reading the catalog only
     * (the caller bounds the connection's reads).
     *
     * @param c a connection as the login to audit
     * @param dialect the dialect served
     * @param policy the policy the agent enforces
     * @return the report
     * @throws SQLException if the catalog cannot be read
     * @throws IllegalArgumentException if this engine has no audit
     */
    default PrivilegeReport auditPrivileges(Connection c, Dialect dialect, GuardPolicy policy) throws SQLException {
        throw new IllegalArgumentException("no privilege audit for " + dialect
                + "; supported: POSTGRESQL, MARIADB, MYSQL, SQLITE, H2, DUCKDB");
    }

    // ---- read-only bounded execution ----

    /**
     * Whether the executor begins the statement's transaction itself (with auto-commit on) rather than
     * turning auto-commit off: DuckDB's driver opens a transaction of its own when auto-commit is off, and
     * on MariaDB and MySQL {@code START TRANSACTION READ ONLY} is one round trip where turning auto-commit
     * off and on again and {@code SET TRANSACTION READ ONLY} take three.
     *
     * @param autoCommit whether the connection is in auto-commit mode now
     * @return whether the transaction is begun by {@link #enterReadOnly}
     */
    default boolean beginsTransaction(boolean autoCommit) {
        return false;
    }

    /**
     * Makes the coming transaction read-only (and applies the engine's own resource limits, if any).
     *
     * @param c the connection, in auto-commit mode exactly when {@code begun}
     * @param begun whether this call begins the transaction ({@link #beginsTransaction})
     * @return whether a session setting was changed that {@link #leaveReadOnly} must undo
     * @throws SQLException if the engine refuses
     */
    default boolean enterReadOnly(Connection c, boolean begun) throws SQLException {
        c.setReadOnly(true);
        return false;
    }

    /**
     * Undoes the session setting {@link #enterReadOnly} changed (when it said so).
     *
     * @param c the connection
     * @throws SQLException if the engine refuses
     */
    default void leaveReadOnly(Connection c) throws SQLException {
    }

    /**
     * Puts the statement's time cap in the server, for the current transaction only, where the driver's
     * own timeout cannot be trusted (PostgreSQL: pgjdbc's cancel opens a second connection, which a
     * partition blocks); the executor reaches it through {@link #serverLimits}. When it returns a cancel, the
     * executor sets no driver timeout and never cancels
     * through the driver; the watchdog aborts the connection if the server's timeout does not answer.
     *
     * @param c the connection, in a transaction
     * @param dataSource where a second connection comes from, to cancel the statement
     * @param timeoutMillis the cap
     * @param physicalOrder whether the statement must read its table in physical order
     *     ({@code SqlStatement.physicalOrder()})
     * @return the cancel of the statement about to run (may be sent again until it returns), or empty when
     *     the driver's timeout and cancel are used
     * @throws SQLException if the engine refuses
     */
    default Optional<Runnable> serverTimeout(Connection c, DataSource dataSource, long timeoutMillis,
                                             boolean physicalOrder) throws SQLException {
        return Optional.empty();
    }

    /**
     * Whether the engine stops a statement that scans more than a given number of bytes, through a setting
     * {@link #serverLimits} puts in the session ({@code QuestionBudget.withMaxScanBytes}).
     *
     * @return whether a scan cap is enforced
     */
    default boolean enforcesScanCap() {
        return false;
    }

    /**
     * Whether the engine stops a statement that uses more than a given amount of memory, through a setting
     * {@link #serverLimits} puts in the session ({@code QuestionBudget.withMaxMemoryBytes}).
     *
     * @return whether a memory cap is enforced
     */
    default boolean enforcesMemoryCap() {
        return false;
    }

    /**
     * Puts the statement's caps in the server: its time cap as {@link #serverTimeout} does, and the scan and
     * memory caps of the question's budget. The executor calls this, not {@link #serverTimeout}; an engine
     * that enforces a byte cap ({@link #enforcesScanCap}, {@link #enforcesMemoryCap}) overrides it.
     *
     * @param c the connection, in a transaction
     * @param dataSource where a second connection comes from, to cancel the statement
     * @param timeoutMillis the time cap
     * @param physicalOrder whether the statement must read its table in physical order
     * @param maxScanBytes the most bytes the statement may scan, 0 for no cap
     * @param maxMemoryBytes the most memory the statement may use, 0 for the engine's own
     * @return as {@link #serverTimeout}
     * @throws SQLException if the engine refuses, or (fail closed: the statement does not run uncapped) if a
     *     byte cap is asked of an engine that does not enforce it, which the agent's build and {@code ask}
     *     refuse before
     */
    default Optional<Runnable> serverLimits(Connection c, DataSource dataSource, long timeoutMillis,
            boolean physicalOrder, long maxScanBytes, long maxMemoryBytes) throws SQLException {
        if (maxScanBytes > 0 || maxMemoryBytes > 0) {
            throw new SQLException("this engine cannot cap a statement's scanned bytes or memory (maxScanBytes="
                    + maxScanBytes + ", maxMemoryBytes=" + maxMemoryBytes + "); the statement was not run", "0A000");
        }
        return serverTimeout(c, dataSource, timeoutMillis, physicalOrder);
    }

    /**
     * Whether the driver enforces {@code Statement.setQueryTimeout} itself; when not, the executor's
     * watchdog cancels at the timeout rather than a grace after it.
     *
     * @return whether the driver times statements out
     */
    default boolean driverTimesOut() {
        return true;
    }
}
