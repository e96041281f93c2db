package dev.sqlagent.verify;

import java.util.function.Function;

/**
 * What a verifier reads from the question, computed once per question: the agent verifies every candidate
 * of a question with the same question, one after another, so the last question's reading is kept and
 * reused while the question is the same. Thread-safe: a miss (another question in between, on another
 * thread) only computes the reading again.
 *
 * @param <T> the reading
 */
final class LastQuestion<T> {

    private record Reading<T>(String question, T value) {
    }

    private final Function<String, T> read;
    private volatile Reading<T> last;

    /** @param read the reading of a question, pure */
    LastQuestion(Function<String, T> read) {
        this.read = read;
    }

    /** @param question a question  @return its reading */
    T of(String question) {
        Reading<T> r = last;
        if (r != null && r.question().equals(question)) {
            return r.value();
        }
        T value = read.apply(question);
        last = new Reading<>(question, value);
        return value;
    }
}
