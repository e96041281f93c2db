package dev.sqlagent.cases;

/**
 * The case sink SPI: receives every finished question's record, good or bad.
 *
 * <p>Called after the result is decided, on the agent's delivery thread ({@link CaseDelivery}), never on
 * the asking thread, except for the in-memory sinks {@link InMemoryCaseSink} and {@link CaseLibrary}. A
 * sink that throws never fails the question: the agent logs it, counts it in its metrics, retries it
 * within a budget and keeps the case in a journal until the sink takes it. A case may therefore be
 * offered more than once: implementations are idempotent by {@link CaseRecord#id()} and thread-safe.
 *
 * <p>How a failure is reported decides what happens to the case: a failure that trying again can never
 * fix (a data or constraint {@link java.sql.SQLException}, class 22 or 23; an
 * {@link IllegalArgumentException}, {@link NullPointerException} or {@link Error}; see
 * {@link CaseDelivery#isPermanent}) sends the case to the journal's dead-letter file at once; any other
 * exception (connection, timeout, I/O) is retried and then journalled. Report a failure by throwing; a
 * sink that returns normally has kept the case.
 */
@FunctionalInterface
public interface CaseSink {

    /**
     * Receives a case and keeps it, or throws. A case already kept under the same id must be accepted
     * again without storing it twice.
     *
     * @param record the case, never null
     * @throws Exception when the case could not be kept; the kind of exception decides whether it is
     *     retried (see above)
     */
    void accept(CaseRecord record) throws Exception;

    /**
     * Receives several cases at once, as a journal replay does; all or none should be kept. By default
     * one {@link #accept} after another; a store overrides it to write them in one transaction.
     *
     * @param records the cases
     * @throws Exception when they could not all be kept (some may have been: delivery is idempotent)
     */
    default void acceptAll(java.util.List<CaseRecord> records) throws Exception {
        for (CaseRecord r : records) {
            accept(r);
        }
    }
}
