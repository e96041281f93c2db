package dev.sqlagent.eval;

import java.nio.file.Path;

/**
 * An evaluation input file (questions, predictions) that cannot be read as expected. The message names
 * the file and, when the fault is in one record, the line.
 */
public final class EvalInputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception whose message starts with the file and, when known, the line:
     * {@code file:line: message}.
     *
     * @param file the file
     * @param line the 1-based line, or 0 when the fault is not in one line
     * @param message what is wrong
     * @param cause the underlying fault, may be null
     */
    public EvalInputException(Path file, int line, String message, Throwable cause) {
        super(file + (line > 0 ? ":" + line : "") + ": " + message, cause);
    }
}
