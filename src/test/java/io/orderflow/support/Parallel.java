package io.orderflow.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

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
}
