package org.springframework.ai.retry;

/**
 * A test stand-in for Spring AI's exception of the same name (module spring-ai-retry, which the adapter
 * does not depend on and recognises by name): a 4xx answer, its message starting with the status.
 */
public class NonTransientAiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public NonTransientAiException(String message) {
        super(message);
    }
}
