package dev.sqlagent.execution;

import java.time.Duration;
import java.util.Objects;

/**
 * An execution error as the database reported it, with its classification.
 *
 * @param category the classified kind of error
 * @param sqlState the five-character SQLState, or null when the driver gave none
 * @param vendorCode the driver's vendor error code, 0 when none
 * @param message the database's message, never null
 * @param elapsed time from submission to the error
 */
public record ExecutionError(ErrorCategory category, String sqlState, int vendorCode, String message,
        Duration elapsed) {

    /**
     * Checks the parts.
     *
     * @param category the classified kind of error
     * @param sqlState the five-character SQLState, or null when the driver gave none
     * @param vendorCode the driver's vendor error code, 0 when none
     * @param message the database's message, never null
     * @param elapsed time from submission to the error
     */
    public ExecutionError {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(elapsed, "elapsed");
    }
}
