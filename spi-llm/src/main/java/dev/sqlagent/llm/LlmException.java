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
        OTHER
    }

    private final Kind kind;

    /**
     * @param kind why the call failed
     * @param message what happened, never containing credentials
     */
    public LlmException(Kind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /**
     * @param kind why the call failed
     * @param message what happened, never containing credentials
     * @param cause the underlying failure
     */
    public LlmException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** @return why the call failed */
    public Kind kind() {
        return kind;
    }
}
