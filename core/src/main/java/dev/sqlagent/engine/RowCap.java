package dev.sqlagent.engine;

/** How an engine's SQL caps the rows of a query ({@link EngineGuard#rowCap()}). */
public enum RowCap {
    /** {@code LIMIT n}. */
    LIMIT,
    /** {@code TOP n}, or {@code OFFSET 0 ROWS FETCH NEXT n ROWS ONLY} after an {@code ORDER BY}. */
    TOP,
    /** {@code FETCH FIRST n ROWS ONLY}. */
    FETCH_FIRST
}
