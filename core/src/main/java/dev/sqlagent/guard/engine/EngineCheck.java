package dev.sqlagent.guard.engine;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.EngineDatabase;
import dev.sqlagent.engine.Engines;
import dev.sqlagent.engine.PlanReader;
import dev.sqlagent.engine.Reads;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ErrorClassifier;
import dev.sqlagent.execution.ExecutionError;
import dev.sqlagent.execution.SqlStatement;
import dev.sqlagent.guard.FunctionPolicy;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.internal.NetworkTimeouts;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine confirms, before a statement runs, what the guard concluded: the database's own planner is
 * asked what the rendered statement reads ({@code EXPLAIN}, never run), and the answer is held against the
 * policy. A table outside the policy, a denied column, a forbidden function or a write in the engine's
 * reading is a {@link EngineVerdict.Disagreement}: the guard read the text one way and the engine another
 * (a parser differential), and the statement must not run. Thread-safe.
 *
 * <p>Engines: SQLite (its bytecode), PostgreSQL ({@code EXPLAIN (VERBOSE, FORMAT JSON)}), MariaDB and
 * MySQL (the optimizer's rewritten query), H2 (its plan text), DuckDB (its parser's tree, whose columns it
 * scopes itself: see {@code DuckDbReader}). See {@code docs/security.md} for what each
 * shows and what it costs.
 *
 * <p>The check fails closed: a plan node, an expression shape or a name the reader cannot map, a system
 * column the policy does not name, a function {@link #functionAllowed} does not allow, are each a
 * {@link EngineVerdict.Disagreement} naming it, never a guess. A statement the engine cannot plan (a real
 * error, or the database not answering) is {@link EngineVerdict.Unavailable}, carrying the engine's error:
 * the run reports that error without running the statement.
 */
public final class EngineCheck {

    /** The logger security events go to: the guard's. */
    public static final String SECURITY_LOGGER = "dev.sqlagent.guard";
    /** Default cap on the engine's time to plan one statement. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private static final Logger SECURITY = LoggerFactory.getLogger(SECURITY_LOGGER);

    /**
     * Marks, in {@link EngineReading#functions()}, a function, operator or macro the database defines itself,
     * followed by its signature ({@code public.initcap(integer)}): allowed only when the policy names it
     * ({@code GuardPolicy.Builder.allowDatabaseFunction}).
     */
    static final String DATABASE_FUNCTION = Reads.DATABASE_FUNCTION;
    /** Marks, in {@link EngineReading#functions()}, a cast to a catalog type, followed by the type. */
    static final String CATALOG_CAST = Reads.CATALOG_CAST;

    private final DataSource dataSource;
    private final Dialect dialect;
    private final PlanReader reader;
    private final int timeoutSeconds;
    /** MariaDB and MySQL: the login that plans in the run login's place, or null (the run login plans). */
    private final DataSource planner;

    private EngineCheck(DataSource dataSource, Dialect dialect, PlanReader reader, int timeoutSeconds,
                        DataSource planner) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.reader = reader;
        this.timeoutSeconds = timeoutSeconds;
        this.planner = planner;
    }

    /**
     * Says whether the engine of a dialect can be asked for its plan.
     *
     * @param dialect a dialect
     * @return whether its engine can be asked (SQLite, PostgreSQL, MariaDB, MySQL, H2, DuckDB)
     */
    public static boolean supports(Dialect dialect) {
        return Engines.of(dialect).database().planReader().isPresent();
    }

    /**
     * Creates a check on a database with the default cap on planning time.
     *
     * @param dataSource the database the statements will run on
     * @param dialect its dialect
     * @return a check with the default time cap
     * @throws IllegalArgumentException if the dialect is not {@linkplain #supports supported}
     */
    public static EngineCheck create(DataSource dataSource, Dialect dialect) {
        return create(dataSource, dialect, DEFAULT_TIMEOUT);
    }

    /**
     * Creates a check on a database with a cap on planning time.
     *
     * @param dataSource the database the statements will run on
     * @param dialect its dialect
     * @param timeout cap on the engine's time to plan one statement, at least one second
     * @return a check
     * @throws IllegalArgumentException if the dialect is not {@linkplain #supports supported} or the
     *     timeout is under a second
     */
    public static EngineCheck create(DataSource dataSource, Dialect dialect, Duration timeout) {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.getSeconds() < 1) {
            throw new IllegalArgumentException("timeout must be >= 1 s but was " + timeout);
        }
        PlanReader reader = Engines.of(dialect).database().planReader().orElseThrow(() ->
                new IllegalArgumentException("the engine check has no plan reader for " + dialect
                        + "; supported: SQLITE, POSTGRESQL, MARIADB, MYSQL, H2"));
        return new EngineCheck(dataSource, dialect, reader, (int) Math.min(Integer.MAX_VALUE, timeout.getSeconds()),
                null);
    }


    /**
     * Returns this check with the statements planned by a second login of the same database (MariaDB and
     * MySQL). Their optimizer trace, which the check reads for what the optimizer folds into constants while
     * planning (a condition on constants, the columns of a table read by primary key), is shown only to a
     * login with table-level {@code SELECT} on every table of the statement (and {@code SHOW VIEW} on every
     * view): a login granted only the allowed columns of a table with denied columns never gets it, and
     * the check then refuses every statement on that table (fail closed). The planning login has those
     * grants and is used for nothing but {@code EXPLAIN}: before it plans a statement, the run login
     * prepares it ({@code PREPARE}, which resolves every name under the run login's privileges and reads no
     * row), so that the planner only ever evaluates columns the run login may read itself, and a statement
     * naming anything else fails with the run login's own error. Both connections must be on the same
     * database with the same {@code sql_mode}, or the check refuses (fail closed).
     *
     * @param planningDataSource the planning login's connections, same server and database
     * @return a check that plans with it
     * @throws IllegalArgumentException if the dialect is not MariaDB or MySQL
     */
    public EngineCheck plannedBy(DataSource planningDataSource) {
        Objects.requireNonNull(planningDataSource, "planningDataSource");
        if (!Engines.of(dialect).database().plansWithSecondLogin()) {
            throw new IllegalArgumentException("a planning login is for MariaDB and MySQL (whose optimizer trace "
                    + "needs table-level grants), not " + dialect);
        }
        return new EngineCheck(dataSource, dialect, reader, timeoutSeconds, planningDataSource);
    }

    /** {@return the dialect} */
    public Dialect dialect() {
        return dialect;
    }

    /**
     * Asks the engine what the statement the guard accepted reads and compares it with the policy. A
     * disagreement is logged as a security event (logger {@value #SECURITY_LOGGER}, WARN, both readings).
     * Never throws on a statement or a database fault: those are {@link EngineVerdict.Unavailable}, whose
     * error the run reports instead of running the statement. A plan that cannot be read is a
     * disagreement (fail closed).
     *
     * @param accepted the guard's verdict: the statement to run and what the guard says it reads
     * @param policy the policy the guard applied
     * @return confirmed, a disagreement, or unavailable
     * @throws NullPointerException if an argument is null
     */
    public EngineVerdict check(GuardVerdict.Accepted accepted, GuardPolicy policy) {
        Objects.requireNonNull(accepted, "accepted");
        Objects.requireNonNull(policy, "policy");
        try (Connection c = dataSource.getConnection()) {
            return check(c, accepted, policy);
        } catch (SQLException e) {
            // the statement was never run: no elapsed time of its own
            ExecutionError error = new ExecutionError(ErrorClassifier.standard().classify(dialect, e), e.getSQLState(),
                    e.getErrorCode(), String.valueOf(e.getMessage()), Duration.ZERO);
            String message = error.message();
            return new EngineVerdict.Unavailable("the engine could not plan the statement (SQLState "
                    + error.sqlState() + ": " + message + "); its error stands for the statement, which is not run",
                    error);
        } catch (RuntimeException e) {
            String message = "the driver failed while the engine planned the statement: " + e;
            return new EngineVerdict.Unavailable(message, new ExecutionError(ErrorCategory.UNKNOWN, null, 0, message,
                    Duration.ZERO));
        }
    }

    /**
     * Asks the engine, on a connection the caller holds (and keeps open), what the statement the guard
     * accepted reads and compares it with the policy; as {@link #check(GuardVerdict.Accepted, GuardPolicy)},
     * except that a fault of the statement or the database is thrown, for the caller to classify as it
     * would the same fault during execution.
     *
     * @param connection a connection to this check's database
     * @param accepted the guard's verdict: the statement to run and what the guard says it reads
     * @param policy the policy the guard applied
     * @return confirmed, a disagreement, or unavailable (the plan was not understood)
     * @throws SQLException if the engine cannot plan the statement (a real error in it, or the database is
     *     unreachable, or the time is up)
     * @throws NullPointerException if an argument is null
     */
    public EngineVerdict check(Connection connection, GuardVerdict.Accepted accepted, GuardPolicy policy)
            throws SQLException {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(accepted, "accepted");
        Objects.requireNonNull(policy, "policy");
        EngineReading reading;
        try {
            reading = planner == null ? read(connection, accepted.statement()) : planned(connection, accepted.statement());
        } catch (PlanReader.PlanNotUnderstood e) {
            reading = EngineReading.unreadable("the engine's plan as a whole: " + e.getMessage());
        } catch (RuntimeException e) {
            // a plan shape the reader was not written for: refused like any other it cannot read
            SECURITY.warn("the engine check's {} reader failed on a plan; refused", dialect, e);
            reading = EngineReading.unreadable("the engine's plan, which its reader failed on: " + e);
        }
        List<String> reasons = disagreements(reading, policy, dialect);
        if (reasons.isEmpty()) {
            return new EngineVerdict.Confirmed(reading);
        }
        String guardReading = "tables=" + new TreeSet<>(accepted.tables()) + " columns="
                + new TreeSet<>(accepted.columns());
        EngineVerdict.Disagreement d = new EngineVerdict.Disagreement(reasons, reading, guardReading);
        SECURITY.warn("security event: the engine reads an accepted statement differently from the guard; "
                        + "refused. reasons={} engine=[{}] guard=[{}] statement={}", reasons, reading.describe(),
                guardReading, accepted.statement().sql());
        return d;
    }

    /**
     * Asks the engine what a statement reads, without running it (with the {@linkplain #plannedBy planning
     * login} when there is one, after the run login prepared it).
     *
     * @param statement the statement and its parameters
     * @return the engine's reading
     * @throws SQLException if the engine cannot plan it (a real error in the statement, or the database is
     *     unreachable)
     * @throws IllegalStateException if the engine's plan came back in a shape the reader does not know
     */
    public EngineReading read(SqlStatement statement) throws SQLException {
        Objects.requireNonNull(statement, "statement");
        try (Connection c = dataSource.getConnection()) {
            return planner == null ? read(c, statement) : planned(c, statement);
        }
    }

    /**
     * Asks the engine what a statement reads on a connection the caller holds (and keeps open). Every read
     * is bounded: the engine's time by the check's timeout (cut to what is left of the deadline of the
     * question running on this thread), and on PostgreSQL, MariaDB and MySQL every read of the connection
     * by a network timeout of that plus {@link NetworkTimeouts#GRACE_MILLIS}, put back afterwards. On
     * PostgreSQL the timeout runs in the server ({@code set_config('statement_timeout', …, true)}, sent in
     * the {@code EXPLAIN}'s round trip, in a transaction that is rolled back, or in the caller's transaction
     * when auto-commit is off): the driver's own timeout cancels over a second connection, which a partition
     * blocks.
     *
     * @param connection a connection to this check's database
     * @param statement the statement and its parameters
     * @return the engine's reading
     * @throws SQLException if the engine cannot plan it
     * @throws IllegalStateException if the engine's plan came back in a shape the reader does not know
     */
    public EngineReading read(Connection connection, SqlStatement statement) throws SQLException {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(statement, "statement");
        long millis = NetworkTimeouts.capped(timeoutSeconds * 1000L);
        int seconds = (int) Math.min(Integer.MAX_VALUE, Math.max(1, (millis + 999) / 1000));
        int network = NetworkTimeouts.bind(connection, dialect, seconds * 1000L + NetworkTimeouts.GRACE_MILLIS);
        try {
            return reader.readBounded(connection, statement, seconds, millis);
        } finally {
            NetworkTimeouts.restore(connection, network);
        }
    }

    /**
     * Reads a statement with the {@linkplain #plannedBy planning login}: the run login prepares it first (its
     * privileges decide every name, no row is read), then the planning login explains it.
     */
    private EngineReading planned(Connection run, SqlStatement statement) throws SQLException {
        long millis = NetworkTimeouts.capped(timeoutSeconds * 1000L);
        int seconds = (int) Math.min(Integer.MAX_VALUE, Math.max(1, (millis + 999) / 1000));
        String runSession;
        int network = NetworkTimeouts.bind(run, dialect, seconds * 1000L + NetworkTimeouts.GRACE_MILLIS);
        try {
            EngineDatabase database = Engines.of(dialect).database();
            runSession = database.planningSession(run, seconds);
            database.prepareAsRunLogin(run, statement, seconds);
        } finally {
            NetworkTimeouts.restore(run, network);
        }
        try (Connection p = planner.getConnection()) {
            String planSession = Engines.of(dialect).database().planningSession(p, seconds);
            if (!planSession.equals(runSession)) {
                return EngineReading.unreadable("a plan by the planning login, whose session (database, sql_mode) "
                        + planSession + " is not the run login's " + runSession);
            }
            return read(p, statement);
        }
    }

    /**
     * Compares an engine's reading with a policy: writes, tables outside the policy, denied columns (read,
     * possibly read, or within a table read whole and not excepted), system columns the policy does not
     * name, functions it does not allow, and whatever the reader could not map.
     *
     * @param reading what the engine reads
     * @param policy the policy
     * @param dialect the dialect (for the function lists)
     * @return one sentence per finding; empty when the reading is within the policy
     */
    public static List<String> disagreements(EngineReading reading, GuardPolicy policy, Dialect dialect) {
        List<String> out = new ArrayList<>();
        for (String u : new TreeSet<>(reading.unreadable())) {
            out.add("the engine check cannot read " + u + "; refused, as anything in a plan it cannot map");
        }
        if (!reading.writes().isEmpty()) {
            out.add("the engine's plan writes or locks: " + new TreeSet<>(reading.writes()));
        }
        for (EngineReading.Table t : reading.tables()) {
            if (!allowed(t, policy)) {
                out.add("the engine reads table " + t.qualified() + ", which the policy does not allow");
            }
        }
        Map<String, Set<String>> denied = policy.deniedColumns();
        for (EngineReading.ColumnRead c : reading.columns()) {
            for (String key : c.table().policyKeys()) {
                Set<String> cols = denied.get(key);
                if (cols != null && cols.contains(c.column())) {
                    out.add("the engine reads column " + c + ", which the policy denies");
                    break;
                }
            }
        }
        for (EngineReading.ColumnRead c : reading.possibleColumns()) {
            if (reading.columns().contains(c)) {
                continue;
            }
            for (String key : c.table().policyKeys()) {
                Set<String> cols = denied.get(key);
                if (cols != null && cols.contains(c.column())) {
                    out.add("the engine's plan may read column " + c + ", which the policy denies (a read the "
                            + "engine's reading cannot place exactly, such as what a PostgreSQL sub-plan compares with "
                            + "the outer row, an unqualified DuckDB column or the key of an index whose order a scan returns, counts as read)");
                    break;
                }
            }
        }
        for (EngineReading.StarRead s : reading.starReads()) {
            for (String key : s.table().policyKeys()) {
                Set<String> cols = denied.get(key);
                if (cols == null) {
                    continue;
                }
                TreeSet<String> read = new TreeSet<>(cols);
                read.removeAll(s.except());
                if (!read.isEmpty()) {
                    out.add("the engine reads every column of " + s.table().qualified()
                            + (s.except().isEmpty() ? "" : " but " + s.except())
                            + " (a star, COLUMNS(…) or whole-row value), among them " + read
                            + ", which the policy denies");
                    break;
                }
            }
        }
        for (EngineReading.ColumnRead c : reading.systemColumns()) {
            if (!systemColumnAllowed(c, policy, dialect)) {
                out.add("the engine reads system column " + c + ", which the policy does not name");
            }
        }
        Set<String> ownAllowed = ownAllowedNames(reading, policy, dialect);
        for (String f : new TreeSet<>(reading.functions())) {
            if (f.startsWith(DATABASE_FUNCTION)) {
                String signature = f.substring(DATABASE_FUNCTION.length());
                if (!policy.allowedDatabaseFunctions().contains(signature)) {
                    out.add("the engine calls " + signature + ", a function or operator the database defines itself, "
                            + "which the policy does not allow (allowDatabaseFunction)");
                }
            } else if (f.startsWith(CATALOG_CAST)) {
                String type = f.substring(CATALOG_CAST.length());
                if (!policy.functionPolicy().allowsProbe(type)) {
                    out.add("the engine casts to catalog type " + type + ", which the policy does not allow");
                }
            } else if (!functionAllowed(f, policy.functionPolicy(), dialect) && !(ownAllowed.contains(f.toLowerCase(Locale.ROOT))
                    && policy.functionPolicy().decide(Arrays.asList(f.toLowerCase(Locale.ROOT).split("\\.")), dialect)
                    .functionClass().isEmpty())) {
                out.add("the engine calls function " + f + ", which the policy does not allow");
            }
        }
        return out;
    }

    /**
     * The names (bare and schema-qualified) of the database's own functions the host allowed that this plan
     * may call by name: on PostgreSQL and DuckDB those the reading found by identity and the policy allows; on
     * the other engines, whose plans name no identity, every one the policy allows. A call of such a name that
     * the engine's catalog does not have is the allowed object.
     */
    private static Set<String> ownAllowedNames(EngineReading reading, GuardPolicy policy, Dialect dialect) {
        Set<String> signatures = new java.util.HashSet<>();
        if (Engines.of(dialect).database().readsOwnFunctionsByIdentity()) {
            for (String f : reading.functions()) {
                if (f.startsWith(DATABASE_FUNCTION)
                        && policy.allowedDatabaseFunctions().contains(f.substring(DATABASE_FUNCTION.length()))) {
                    signatures.add(f.substring(DATABASE_FUNCTION.length()));
                }
            }
        } else {
            signatures.addAll(policy.allowedDatabaseFunctions());
        }
        Set<String> out = new java.util.HashSet<>();
        for (String sig : signatures) {
            int open = sig.indexOf('(');
            String qualified = open < 0 ? sig : sig.substring(0, open);
            out.add(qualified);
            out.add(qualified.substring(qualified.indexOf('.') + 1));
        }
        return out;
    }

    /**
     * Says whether the policy lets a statement read an engine's system column ({@code ctid},
     * {@code tableoid}, {@code xmin} … on PostgreSQL, {@code _rowid_} on H2, a row id without an integer
     * primary key on SQLite): the one place that decides it.
     *
     * @param column the system column read, as the reader names it
     * @param policy the policy
     * @param dialect the dialect
     * @return whether the policy names it ({@link GuardPolicy#allowedSystemColumns()}), and it is no row id
     *     of a table with denied columns (which may be one of them)
     */
    static boolean systemColumnAllowed(EngineReading.ColumnRead column, GuardPolicy policy, Dialect dialect) {
        String name = column.column().toLowerCase(Locale.ROOT);
        if (!policy.allowedSystemColumns().contains(name)) {
            return false;
        }
        for (String key : column.table().policyKeys()) {
            if (policy.deniedColumns().containsKey(key) && ROW_IDS.contains(name)) {
                return false;
            }
        }
        return true;
    }

    /** Names of a table's integer row id, which may alias a denied column. */
    private static final Set<String> ROW_IDS = Set.of("rowid", "_rowid_", "oid", "_rowid");

    private static boolean allowed(EngineReading.Table t, GuardPolicy policy) {
        for (String key : t.policyKeys()) {
            if (policy.allowedTables().contains(key)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a function the engine's plan calls may run, by the same decision the guard makes
     * ({@link FunctionPolicy#decide}). A name the catalog classifies unsafe is refused outright; a name the
     * engine uses for another one, or for syntax the guard checks as syntax ({@code EngineDatabase.functionAliases}), is
     * allowed when the name it stands for is. Anything else (a name the catalog does not have) is refused:
     * the plan calls something the guard did not see.
     * Every function name any reader finds goes through here, and nowhere else.
     *
     * @param engineName the engine's name for it, lower case, perhaps schema-qualified with dots
     * @param functions the policy's functions
     * @param dialect the dialect
     * @return whether the policy allows it
     */
    static boolean functionAllowed(String engineName, FunctionPolicy functions, Dialect dialect) {
        String name = engineName.toLowerCase(Locale.ROOT);
        EngineDatabase database = Engines.of(dialect).database();
        java.util.Optional<Boolean> marked = database.markedFunctionAllowed(name, functions, dialect);
        if (marked.isPresent()) {
            // a name the engine's reader marked as a kind of its own (an FTS5 auxiliary function bound to a row)
            return marked.get();
        }
        FunctionPolicy.Decision d = functions.decide(Arrays.asList(name.split("\\.")), dialect);
        if (d.allowed()) {
            return true;
        }
        if (d.functionClass().map(c -> !c.safe()).orElse(false)) {
            return false;
        }
        for (String other : database.functionAliases().getOrDefault(name, List.of())) {
            if (other.isEmpty() || functions.decide(List.of(other), dialect).allowed()) {
                return true;
            }
        }
        return false;
    }
}
