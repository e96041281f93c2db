package dev.sqlagent.guard;

/** Why the guard refused a SQL. */
public enum ViolationType {
    /** Empty input or input over the length cap. */
    INPUT_TOO_LONG,
    /** More than one statement. */
    MULTIPLE_STATEMENTS,
    /**
     * A statement that is not a query (DDL, DML, {@code COPY}, {@code ATTACH}, {@code INSTALL}/{@code LOAD},
     * {@code PRAGMA}, {@code SET}, {@code CALL}, {@code EXPLAIN}, …), read from the tokens before any parse:
     * refused, never corrected as a syntax error, and never cut down to a query inside it.
     */
    NOT_A_QUERY,
    /** A table or view outside the allowed list. */
    TABLE_NOT_ALLOWED,
    /** A column the policy denies. */
    COLUMN_DENIED,
    /** A function outside the allowlist, on the denylist, or dangerous in any mode. */
    FUNCTION_NOT_ALLOWED,
    /** A table function in FROM, or a file or URL read as a table (DuckDB's {@code FROM 'data/x.csv'}). */
    TABLE_FUNCTION,
    /** A comment of any kind. */
    COMMENT,
    /** A string literal the parser and the database may read differently. */
    UNSAFE_STRING_LITERAL,
    /** {@code SELECT *} or {@code t.*} while the policy refuses it. */
    SELECT_STAR,
    /** {@code FOR UPDATE}, {@code FOR SHARE} and other locking clauses. */
    LOCKING_CLAUSE,
    /** {@code SELECT … INTO}, {@code INTO OUTFILE}/{@code DUMPFILE}. */
    INTO_CLAUSE,
    /** A CTE that writes (INSERT/UPDATE/DELETE inside WITH). */
    WRITABLE_CTE,
    /** Parsing took longer than the policy allows. */
    PARSE_TIMEOUT,
    /**
     * A character the guard does not accept outside string literals: a control character, a non-ASCII
     * character outside a quoted identifier, one inside a quoted identifier that is no letter, mark or digit
     * or makes a look-alike name (mixed scripts, not NFKC), a JDBC escape brace.
     */
    SUSPICIOUS_CHARACTER,
    /** A placeholder ({@code ?}, {@code :name}) or a session variable ({@code @x}, {@code @@x}) in the SQL. */
    PARAMETER,
    /** Parentheses or expressions nested deeper than the guard parses safely. */
    NESTING_TOO_DEEP,
    /**
     * A construct the guard does not analyse (and therefore refuses rather than let through unchecked):
     * {@code VALUES}, {@code PIVOT}, {@code CONNECT BY}, vendor clauses, …
     */
    UNSUPPORTED_CONSTRUCT,
    /**
     * A call that would build more than {@link GuardPolicy#maxExpandedBytes()} ({@code repeat('x', 1e9)},
     * nested expansions, a {@code printf} width), or whose size argument is not a constant so that the guard
     * cannot bound it; on H2, also an aggregate that collects its whole input or a recursive CTE that grows a
     * value, which H2 would build in the host's heap without a cap.
     */
    RESOURCE_LIMIT,
    /** A mandatory row filter could not be applied where the filtered table is read. */
    ROW_FILTER,
    /**
     * The database's own planner reads the accepted statement differently from the guard: a table outside
     * the policy, a denied column, a forbidden function, or a write (see {@code EngineCheck}).
     */
    ENGINE_DISAGREEMENT,
    /**
     * A name that resolves to no column the statement can see: not a column of a table, CTE or derived table
     * in scope, not a select-list alias, not a keyword. Closed world: it is refused, never guessed at. It is
     * a mistake rather than a policy violation ({@link #inventedName()}): the agent corrects it like an
     * unknown column reported by the database, and never runs it.
     */
    UNKNOWN_COLUMN,
    /**
     * A function the engine's classified catalog does not have (an invented name such as {@code YEAR(…)} on
     * SQLite). A mistake rather than a policy violation ({@link #inventedName()}): corrected, never run.
     */
    UNKNOWN_FUNCTION,
    /**
     * A system column the engine adds to every table ({@code ctid}, {@code tableoid}, {@code xmin},
     * {@code rowid}, {@code _rowid_}, …) that the policy does not allow by name.
     */
    SYSTEM_COLUMN,
    /**
     * A whole-row reference that reads every column of a table with denied columns: the table or its alias
     * used as a value, {@code t.*} outside the top select list, or PostgreSQL's attribute notation
     * {@code t.f}, which calls {@code f(t)} on the whole row.
     */
    WHOLE_ROW;

    /**
     * Says whether this kind of refusal names something the database does not have (an invented column or
     * function) rather than something the policy forbids. A refusal made only of invented names (and of
     * tables the database does not have) is corrected once, like the database's own "does not exist" error;
     * any other violation rejects the question.
     *
     * @return whether it is an invented name
     */
    public boolean inventedName() {
        return this == UNKNOWN_COLUMN || this == UNKNOWN_FUNCTION;
    }
}
