package dev.sqlagent.internal.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import dev.sqlagent.internal.RunScope;

/**
 * Runs a function over a few items on a bounded executor and returns the results in item order. One
 * item, or no executor, runs on the caller's thread. A function that throws a runtime exception rethrows
 * it on the caller's thread.
 */
final class Parallel {

    private Parallel() {
    }

    static <T, R> List<R> map(Executor executor, List<T> items, Function<T, R> f) {
        if (executor == null || items.size() < 2) {
            List<R> out = new ArrayList<>(items.size());
            for (T t : items) {
                out.add(f.apply(t));
            }
            return out;
        }
        List<CompletableFuture<R>> futures = new ArrayList<>(items.size());
        // the question's scope follows its work, so that a cancellation reaches statements run here too
        RunScope scope = RunScope.current();
        for (T t : items) {
            dev.sqlagent.internal.Work.HAND_OFF.count();
            futures.add(CompletableFuture.supplyAsync(() -> {
                if (scope == null) {
                    return f.apply(t);
                }
                RunScope.Binding bound = scope.bind();
                try {
                    return f.apply(t);
                } finally {
                    bound.close();
                }
            }, executor));
        }
        List<R> out = new ArrayList<>(items.size());
        for (CompletableFuture<R> fu : futures) {
            try {
                // get, not join: an interrupt (the agent closing and stopping its threads) ends the wait,
                // where join would wait for a task a stopped pool will never run
                out.add(fu.get());
            } catch (InterruptedException e) {
                futures.forEach(other -> other.cancel(true));
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for parallel work", e);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof RuntimeException) {
                    throw (RuntimeException) e.getCause();
                }
                if (e.getCause() instanceof Error) {
                    throw (Error) e.getCause();
                }
                throw new IllegalStateException(e.getCause());
            }
        }
        return out;
    }
}
