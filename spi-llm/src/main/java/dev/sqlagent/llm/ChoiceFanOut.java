package dev.sqlagent.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * For an {@link LlmClient} over a model API that answers one choice per call: makes the {@code n} calls a
 * request wants, {@code n - 1} of them on an executor and one on the caller's thread, and joins their answers
 * into one {@link LlmResponse} (the texts in call order, the usage summed, the first model name reported). The
 * first failure cancels the calls still running and is thrown as an {@link LlmException}; an interrupt while
 * waiting cancels them too and keeps the thread's interrupt flag.
 *
 * <pre>{@code
 * LlmResponse r = ChoiceFanOut.collect(request.n(), () -> callOnce(request), executor, MyErrors::map);
 * }</pre>
 */
public final class ChoiceFanOut {

    private static final AtomicInteger THREADS = new AtomicInteger();

    private ChoiceFanOut() {
    }

    /**
     * Makes {@code n} calls and joins their answers.
     *
     * @param n how many choices, at least 1
     * @param call one call of the model, answering one choice (its first text is taken)
     * @param executor where the calls beyond the first run
     * @param errors turns a call's failure that is no {@link LlmException} into one
     * @return the joined answer
     * @throws LlmException the first failure of a call, as {@code errors} maps it; {@code OTHER} if the
     *     caller was interrupted while waiting
     * @throws IllegalArgumentException if {@code n} is below 1
     * @throws NullPointerException if an argument is null
     */
    public static LlmResponse collect(int n, Supplier<LlmResponse> call, Executor executor,
                                      Function<Throwable, LlmException> errors) {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(errors, "errors");
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1 but was " + n);
        }
        if (n == 1) {
            return one(call.get());
        }
        List<CompletableFuture<LlmResponse>> others = new ArrayList<>(n - 1);
        for (int i = 1; i < n; i++) {
            others.add(CompletableFuture.supplyAsync(call, executor));
        }
        List<LlmResponse> answers = new ArrayList<>(n);
        try {
            answers.add(one(call.get()));
            for (CompletableFuture<LlmResponse> f : others) {
                answers.add(one(f.get()));
            }
        } catch (InterruptedException e) {
            others.forEach(f -> f.cancel(true));
            Thread.currentThread().interrupt();
            throw new LlmException(LlmException.Kind.OTHER, "interrupted while waiting for " + n + " choices", e);
        } catch (ExecutionException | CancellationException | CompletionException e) {
            others.forEach(f -> f.cancel(true));
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw cause instanceof LlmException l ? l : errors.apply(cause);
        } catch (RuntimeException e) {
            others.forEach(f -> f.cancel(true));
            throw e;
        }
        List<String> texts = new ArrayList<>(n);
        TokenUsage usage = TokenUsage.NONE;
        String model = "";
        for (LlmResponse a : answers) {
            texts.add(a.text());
            usage = usage.plus(a.usage());
            if (model.isEmpty()) {
                model = a.model();
            }
        }
        return new LlmResponse(texts, usage, model);
    }

    /**
     * A pool for the extra calls when the host gives no executor: daemon threads named
     * {@code <prefix>-<number>}, created as needed and retired when idle for a minute.
     *
     * @param prefix the threads' name prefix, e.g. {@code sqlagent-langchain4j}
     * @return a new pool; the caller keeps it for the life of its class
     * @throws NullPointerException if the prefix is null
     */
    public static ExecutorService daemonPool(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        return Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, prefix + "-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    private static LlmResponse one(LlmResponse r) {
        if (r == null || r.texts().isEmpty()) {
            throw new LlmException(LlmException.Kind.MALFORMED_RESPONSE, "a call returned no choice");
        }
        return r;
    }
}
