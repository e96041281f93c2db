package dev.sqlagent;

import java.util.Locale;

/**
 * The SQL dialect of the database the agent queries. It steers the guard's parser and row-limit form,
 * the error classifier's codes and the refiner's instructions.
 */
public enum Dialect {
    /** H2 (any compatibility mode treated as H2's own). */
    H2,
    /** SQLite 3. */
    SQLITE,
    /** PostgreSQL. */
    POSTGRESQL,
    /** MySQL. */
    MYSQL,
    /** MariaDB (MySQL's error codes, its own server). */
    MARIADB,
    /** DuckDB, in-process (a database file, or files registered as tables: see {@code DuckDbFiles}). */
    DUCKDB,
    /** Microsoft SQL Server. Experimental: no engine runs it in CI, so its verdicts are parse-only. */
    SQLSERVER,
    /** Oracle Database. Experimental: no engine runs it in CI, so its verdicts are parse-only. */
    ORACLE,
    /** Anything else: ANSI SQL assumed, SQLState classes only. Experimental: no engine behind it. */
    GENERIC,
    /**
     * Trino, a distributed SQL engine over many catalogs: names are {@code catalog.schema.table}, and only the
     * policy's tables in them are read (see docs/trino.md).
     */
    TRINO;

    /**
     * Maps a JDBC {@code DatabaseMetaData.getDatabaseProductName()} to a dialect.
     *
     * @param productName the product name, may be null
     * @return the dialect, {@link #GENERIC} when unknown
     */
    public static Dialect fromProductName(String productName) {
        if (productName == null) {
            return GENERIC;
        }
        String p = productName.toLowerCase(Locale.ROOT);
        if (p.contains("h2")) {
            return H2;
        }
        if (p.contains("sqlite")) {
            return SQLITE;
        }
        if (p.contains("postgres")) {
            return POSTGRESQL;
        }
        if (p.contains("duckdb")) {
            return DUCKDB;
        }
        if (p.contains("trino")) {
            return TRINO;
        }
        if (p.contains("mariadb")) {
            return MARIADB;
        }
        if (p.contains("mysql")) {
            return MYSQL;
        }
        if (p.contains("microsoft") || p.contains("sql server")) {
            return SQLSERVER;
        }
        if (p.contains("oracle")) {
            return ORACLE;
        }
        return GENERIC;
    }

    /**
     * Parses a dialect name as users type it ({@code postgres}, {@code mysql}, {@code sqlserver}, …).
     *
     * @param name the name
     * @return the dialect
     * @throws IllegalArgumentException naming the accepted values when the name is unknown
     */
    public static Dialect parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
        switch (n) {
            case "h2": return H2;
            case "sqlite": case "sqlite3": return SQLITE;
            case "postgres": case "postgresql": case "pg": return POSTGRESQL;
            case "mysql": return MYSQL;
            case "mariadb": return MARIADB;
            case "duckdb": return DUCKDB;
            case "trino": return TRINO;
            case "sqlserver": case "mssql": case "tsql": return SQLSERVER;
            case "oracle": return ORACLE;
            case "generic": case "ansi": return GENERIC;
            default:
                throw new IllegalArgumentException("unknown dialect '" + name
                        + "'; expected one of h2, sqlite, postgresql, mysql, mariadb, duckdb, trino, sqlserver, oracle, generic");
        }
    }

    /**
     * Says whether a real engine of this dialect runs in the project's tests. The others
     * ({@link #SQLSERVER}, {@link #ORACLE}, {@link #GENERIC}) are experimental: the guard parses and
     * resolves their SQL, but no engine ever confirmed its reading of them.
     *
     * @return whether an engine of this dialect is tested
     */
    public boolean engineTested() {
        return this != SQLSERVER && this != ORACLE && this != GENERIC;
    }

    /** {@return whether the dialect speaks MySQL's protocol and error codes} */
    public boolean isMySqlFamily() {
        return this == MYSQL || this == MARIADB;
    }
}
