package dev.sqlagent.langchain4j;

import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import dev.langchain4j.exception.UnsupportedFeatureException;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmException.Kind;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.CompletionException;

/** Maps what a LangChain4j model throws to an {@link LlmException} of the matching kind. */
final class ProviderErrors {

    private ProviderErrors() {
    }

    /**
     * @param t what the model threw
     * @return the exception to throw in its place, with {@code t} as its cause
     */
    static LlmException map(Throwable t) {
        if (t instanceof LlmException) {
            return (LlmException) t;
        }
        Throwable failure = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
        Kind kind = kind(failure);
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return new LlmException(kind, "LangChain4j model failed (" + failure.getClass().getSimpleName() + "): " + message,
                failure);
    }

    private static Kind kind(Throwable failure) {
        // the first cause that says something decides: a LangChain4j exception, an HTTP status, an I/O fault
        for (Throwable c = failure; c != null; c = c.getCause() == c ? null : c.getCause()) {
            Kind k = direct(c);
            if (k != null) {
                return k;
            }
        }
        return Kind.OTHER;
    }

    private static Kind direct(Throwable c) {
        if (c instanceof TimeoutException || c instanceof HttpTimeoutException
                || c instanceof java.net.SocketTimeoutException || c instanceof java.util.concurrent.TimeoutException) {
            return Kind.TIMEOUT;
        }
        if (c instanceof RateLimitException) {
            return Kind.RATE_LIMITED;
        }
        if (c instanceof InternalServerException) {
            return Kind.SERVER_ERROR;
        }
        if (c instanceof AuthenticationException) {
            return Kind.AUTHENTICATION;
        }
        if (c instanceof InvalidRequestException || c instanceof ModelNotFoundException
                || c instanceof UnsupportedFeatureException) {
            return Kind.BAD_REQUEST;
        }
        if (c instanceof UnresolvedModelServerException) {
            return Kind.TRANSPORT;
        }
        if (c instanceof HttpException) {
            return Kind.ofHttpStatus(((HttpException) c).statusCode());
        }
        if (c instanceof IOException) {
            return Kind.TRANSPORT;
        }
        return null;
    }
}
