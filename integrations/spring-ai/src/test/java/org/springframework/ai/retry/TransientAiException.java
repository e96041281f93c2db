package org.springframework.ai.retry;

/** A test stand-in for Spring AI's exception of the same name (spring-ai-retry): a retryable fault. */
public class TransientAiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TransientAiException(String message) {
        super(message);
    }
}
