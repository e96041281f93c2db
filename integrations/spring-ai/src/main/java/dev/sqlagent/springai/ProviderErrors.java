package dev.sqlagent.springai;

import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmException.Kind;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.CompletionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps what a Spring AI model throws to an {@link LlmException} of the matching kind.
 *
 * <p>Spring AI's providers throw Spring's HTTP client exceptions ({@code RestClientResponseException} and
 * its subclasses, carrying the status), Spring AI's {@code TransientAiException} (a 5xx or a retryable
 * fault) and {@code NonTransientAiException} (a 4xx), whose messages start with the HTTP status, and
 * I/O faults under them. They live in modules this adapter does not depend on (spring-web,
 * spring-ai-retry), so they are recognised by class name and read reflectively.
 */
final class ProviderErrors {

    private static final Pattern LEADING_STATUS = Pattern.compile("^\\s*(?:HTTP\\s*)?(\\d{3})\\b");

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
        if (failure instanceof LlmException) {
            return (LlmException) failure;
        }
        Kind kind = kind(failure);
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return new LlmException(kind, "Spring AI model failed (" + failure.getClass().getSimpleName() + "): "
                + message, failure);
    }

    private static Kind kind(Throwable failure) {
        // the first cause that says something decides: an HTTP status, Spring AI's retry exceptions, an I/O fault
        for (Throwable c = failure; c != null; c = c.getCause() == c ? null : c.getCause()) {
            Kind k = direct(c);
            if (k != null) {
                return k;
            }
        }
        return Kind.OTHER;
    }

    private static Kind direct(Throwable c) {
        if (c instanceof HttpTimeoutException || c instanceof java.net.SocketTimeoutException
                || c instanceof java.util.concurrent.TimeoutException) {
            return Kind.TIMEOUT;
        }
        Integer status = httpStatus(c);
        if (status != null) {
            return Kind.ofHttpStatus(status);
        }
        if (isA(c, "org.springframework.ai.retry.NonTransientAiException")) {
            Integer leading = leadingStatus(c.getMessage());
            return leading != null ? Kind.ofHttpStatus(leading) : Kind.BAD_REQUEST;
        }
        if (isA(c, "org.springframework.ai.retry.TransientAiException")) {
            Integer leading = leadingStatus(c.getMessage());
            return leading != null ? Kind.ofHttpStatus(leading) : Kind.SERVER_ERROR;
        }
        if (c instanceof IOException) {
            return Kind.TRANSPORT;
        }
        return null;
    }

    /** {@return the status of a Spring {@code RestClientResponseException} or {@code WebClientResponseException}} */
    private static Integer httpStatus(Throwable c) {
        if (!isA(c, "org.springframework.web.client.RestClientResponseException")
                && !isA(c, "org.springframework.web.reactive.function.client.WebClientResponseException")) {
            return null;
        }
        try {
            Method getStatusCode = c.getClass().getMethod("getStatusCode");
            Object code = getStatusCode.invoke(c);
            Method value = code.getClass().getMethod("value");
            value.setAccessible(true);
            return (Integer) value.invoke(code);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return leadingStatus(c.getMessage());
        }
    }

    private static Integer leadingStatus(String message) {
        if (message == null) {
            return null;
        }
        Matcher m = LEADING_STATUS.matcher(message);
        return m.find() ? Integer.valueOf(m.group(1)) : null;
    }

    private static boolean isA(Throwable t, String className) {
        for (Class<?> k = t.getClass(); k != null; k = k.getSuperclass()) {
            if (k.getName().equals(className)) {
                return true;
            }
        }
        return false;
    }
}
