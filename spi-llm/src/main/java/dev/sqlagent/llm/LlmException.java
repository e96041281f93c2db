package dev.sqlagent.llm;

import java.util.Objects;

/** A model call that did not produce a usable response. {@link #kind()} says why. */
public class LlmException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a model call failed. */
    public enum Kind {
        /** No answer in time. */
        TIMEOUT,
        /** HTTP 429 or a provider's quota message, after the client's own retries. */
        RATE_LIMITED,
        /** HTTP 5xx, after the client's own retries. */
        SERVER_ERROR,
        /** Connection refused, reset or closed. */
        TRANSPORT,
        /** Credentials refused (HTTP 401/403). */
        AUTHENTICATION,
        /** The request was refused as malformed (HTTP 400, 404, 422). */
        BAD_REQUEST,
        /** The provider answered, but not in a form the client understands. */
        MALFORMED_RESPONSE,
        /** Anything else. */
        OTHER;

        /**
         * Reads an HTTP status the way every HTTP-based client should: 401 and 403 are
         * {@link #AUTHENTICATION}, 408 {@link #TIMEOUT}, 429 {@link #RATE_LIMITED}, 5xx
         * {@link #SERVER_ERROR}, 400, 404, 405, 409, 413, 415 and 422 {@link #BAD_REQUEST}, anything else
         * {@link #OTHER}.
         *
         * @param status an HTTP status code
         * @return the kind of failure it reports
         */
        public static Kind ofHttpStatus(int status) {
            if (status == 401 || status == 403) {
                return AUTHENTICATION;
            }
            if (status == 408) {
                return TIMEOUT;
            }
            if (status == 429) {
                return RATE_LIMITED;
            }
            if (status >= 500 && status < 600) {
                return SERVER_ERROR;
            }
            switch (status) {
                case 400: case 404: case 405: case 409: case 413: case 415: case 422:
                    return BAD_REQUEST;
                default:
                    return OTHER;
            }
        }
    }

    /** Why the call failed; part of the serialized form. */
    private final Kind kind;

    /**
     * Creates an exception for a failed model call.
     *
     * @param kind why the call failed, not null
     * @param message what happened, never containing credentials
     * @throws NullPointerException if {@code kind} is null
     */
    public LlmException(Kind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /**
     * Creates an exception for a failed model call with the failure that caused it.
     *
     * @param kind why the call failed, not null
     * @param message what happened, never containing credentials
     * @param cause the underlying failure, may be null
     * @throws NullPointerException if {@code kind} is null
     */
    public LlmException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /**
     * Says why the call failed, so callers can tell a retryable fault from a configuration error.
     *
     * @return why the call failed, never null
     */
    public Kind kind() {
        return kind;
    }
}
