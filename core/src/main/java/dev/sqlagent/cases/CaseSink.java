package dev.sqlagent.cases;

/**
 * The case sink SPI: receives every finished question's record, good or bad.
 *
 * <p>Called on the asking thread after the result is decided. A sink that throws never fails the
 * question: the agent logs it, counts it in its metrics and carries on. Implementations are
 * thread-safe.
 */
@FunctionalInterface
public interface CaseSink {

    /**
     * Receives a case.
     *
     * @param record the case
     * @throws Exception when the case could not be kept
     */
    void accept(CaseRecord record) throws Exception;
}
