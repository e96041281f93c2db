package dev.sqlagent.guard;

/**
 * What calling a function of a database engine can do, as classified in the engine's generated function
 * catalog ({@link FunctionCatalog}). {@link FunctionPolicy#standard()} allows the {@linkplain #safe() safe}
 * classes; a host allows a function of another class only by confirming the class
 * ({@link FunctionPolicy#allowUnsafe(FunctionClass, String...)}).
 *
 * <p>A name the engine overloads carries the most restrictive class of its forms: PostgreSQL's
 * {@code ts_rewrite} runs a query given as a string in one of its forms, so every call of it is
 * {@link #READS_TABLES}.
 */
public enum FunctionClass {
    /** An ordinary scalar function: its result depends only on its arguments (and the clock or a random source). */
    SAFE_SCALAR(true),
    /** An ordinary aggregate function ({@code count}, {@code string_agg}, {@code percentile_cont}, …). */
    SAFE_AGGREGATE(true),
    /** An ordinary window function ({@code row_number}, {@code lag}, {@code ntile}, …). */
    SAFE_WINDOW(true),
    /**
     * A function whose result can be far larger than its arguments: {@code repeat}, {@code lpad},
     * {@code space}, {@code printf}/{@code format} widths, {@code zeroblob}, {@code randomblob},
     * {@code generate_series}, {@code replicate}, {@code replace}. Allowed by the standard policy because the
     * guard bounds its size from constant arguments and refuses it when that is not possible (see
     * {@link GuardPolicy#maxExpandedBytes()}).
     */
    EXPANDS_RESOURCES(true),
    /**
     * Runs a query, or reads a relation named in a string, past the guard's table checks:
     * {@code query_to_xml}, {@code table_to_xml}, {@code ts_stat}, {@code ts_rewrite}, H2's {@code TABLE}.
     */
    READS_TABLES(false),
    /**
     * Reaches outside the database: files, the network, large objects, linked databases
     * ({@code pg_read_file}, {@code lo_get}, {@code LOAD_FILE}, H2's {@code FILE_READ}, {@code CSVREAD},
     * {@code LINK_SCHEMA}), or loads code ({@code load_extension}).
     */
    READS_FILES(false),
    /**
     * Reads the catalog rather than data: object DDL and definitions, object ids, privileges, sizes,
     * comments ({@code pg_get_viewdef}, {@code has_table_privilege}, {@code to_regclass}, H2's
     * {@code DB_OBJECT_SQL}).
     */
    READS_CATALOG(false),
    /**
     * Says who or where the session is: the login, the database, settings, the server's version, process
     * ids, transaction ids, other sessions' activity ({@code current_user}, {@code version},
     * {@code current_setting}, {@code pg_backend_pid}, {@code CONNECTION_ID}).
     */
    READS_SESSION(false),
    /**
     * Changes state, even inside a read-only transaction: files written ({@code FILE_WRITE},
     * {@code CSVWRITE}, {@code lo_export}), sequences ({@code nextval}, {@code setval}), settings
     * ({@code set_config}), replication and statistics state, notifications.
     */
    WRITES(false),
    /**
     * Sleeps, takes or waits for locks, or acts on other sessions: {@code pg_sleep}, {@code SLEEP},
     * {@code BENCHMARK}, advisory locks, {@code GET_LOCK}, replication waits
     * ({@code MASTER_POS_WAIT}), {@code pg_cancel_backend}, {@code pg_terminate_backend},
     * H2's {@code CANCEL_SESSION}.
     */
    WAITS_OR_LOCKS(false),
    /**
     * An engine's own support function, callable but never meant for queries: type input and output
     * functions, index, planner and aggregate-step support, trigger functions, internal parsing helpers
     * (PostgreSQL {@code int4in}, {@code record_out}, {@code btint4cmp}; SQLite {@code fts3_tokenizer}).
     */
    INTERNAL(false);

    private final boolean safe;

    FunctionClass(boolean safe) {
        this.safe = safe;
    }

    /**
     * Says whether the standard policy allows functions of this class.
     *
     * @return whether the standard policy allows functions of this class (the three {@code SAFE_} classes
     *         and {@link #EXPANDS_RESOURCES}, which the guard bounds)
     */
    public boolean safe() {
        return safe;
    }
}
