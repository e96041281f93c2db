package dev.sqlagent.cases;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Keeps cases in memory, for tests and small tools. Thread-safe. */
public final class InMemoryCaseSink implements CaseSink {

    private final List<CaseRecord> cases = new ArrayList<>();

    /** Creates an empty sink. */
    public InMemoryCaseSink() {
    }

    @Override
    public synchronized void accept(CaseRecord record) {
        cases.add(Objects.requireNonNull(record, "record"));
    }

    /** {@return the cases received, in order} */
    public synchronized List<CaseRecord> cases() {
        return List.copyOf(cases);
    }

    /** Forgets every case. */
    public synchronized void clear() {
        cases.clear();
    }
}
