package io.orderflow.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/** Starts calls at the same moment, each on its own thread, and collects their results in order. */
public final class Parallel {

    private Parallel() {
    }

    public static <T> List<T> run(List<Callable<T>> calls) {
        ExecutorService threads = Executors.newFixedThreadPool(calls.size());
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> pending = new ArrayList<>();
            for (Callable<T> call : calls) {
                pending.add(threads.submit(() -> {
                    start.await();
                    return call.call();
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> result : pending) {
                results.add(result.get(60, TimeUnit.SECONDS));
            }
            return results;
        } catch (Exception e) {
            throw new IllegalStateException("A parallel call failed", e);
        } finally {
            threads.shutdownNow();
        }
    }

    public static <T> List<T> run(int times, Callable<T> call) {
        List<Callable<T>> calls = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            calls.add(call);
        }
        return run(calls);
    }

    /**
     * Runs rounds 0 to {@code rounds - 1}, this many at a time, each on one thread; the first round that
     * fails (an assertion, say) fails the whole with its own error.
     */
    public static void rounds(int rounds, int atOnce, IntConsumer round) {
        ExecutorService threads = Executors.newFixedThreadPool(atOnce);
        try {
            List<Future<?>> pending = IntStream.range(0, rounds).<Future<?>>mapToObj(i -> threads.submit(() -> round.accept(i))).toList();
            for (Future<?> result : pending) {
                result.get(5, TimeUnit.MINUTES);
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("A round failed", e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException("The rounds did not end", e);
        } finally {
            threads.shutdownNow();
        }
    }
}
