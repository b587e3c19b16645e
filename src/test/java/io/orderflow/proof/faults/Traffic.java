package io.orderflow.proof.faults;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the clients of one scenario sent and what went wrong for them: every HTTP request (retries
 * included), and the time of every error they saw (no answer, 5xx), so that a fault's errors can be
 * counted within its window.
 */
final class Traffic {

    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong serverErrors = new AtomicLong();
    private final Queue<Long> errorTimes = new ConcurrentLinkedQueue<>();

    void sent() {
        requests.incrementAndGet();
    }

    /** No answer (connection refused or lost, timeout) or a 5xx. */
    void failed(int status) {
        errorTimes.add(System.nanoTime());
        if (status == 500) {
            serverErrors.incrementAndGet();
        }
    }

    long requests() {
        return requests.get();
    }

    long errors() {
        return errorTimes.size();
    }

    /** 500s: the contract allows none, whatever fails underneath. */
    long serverErrors() {
        return serverErrors.get();
    }

    long errorsBetween(long fromNanos, long toNanos) {
        return errorTimes.stream().filter(at -> at >= fromNanos && at <= toNanos).count();
    }
}
