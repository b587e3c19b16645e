package io.orderflow.proof.faults;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the clients of one scenario sent and what went wrong for them: every HTTP request (retries
 * included), the time of every error they saw (no answer, 5xx), and when each request was sent whose
 * answer was held up, so that a fault's errors and hold-ups can be counted within its window.
 */
final class Traffic {

    /** An answer this long or longer after its request was held up: normal ones take milliseconds. */
    static final Duration HELD_UP = Duration.ofSeconds(2);

    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong serverErrors = new AtomicLong();
    private final Queue<Long> errorTimes = new ConcurrentLinkedQueue<>();
    private final Queue<Long> heldUpSendTimes = new ConcurrentLinkedQueue<>();

    /** Returns when it was sent (System.nanoTime()), for {@link #answered}. */
    long sent() {
        requests.incrementAndGet();
        return System.nanoTime();
    }

    /** Any answer to the request sent then. */
    void answered(long sentAt) {
        if (System.nanoTime() - sentAt >= HELD_UP.toNanos()) {
            heldUpSendTimes.add(sentAt);
        }
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

    long heldUp() {
        return heldUpSendTimes.size();
    }

    long errorsBetween(long fromNanos, long toNanos) {
        return between(errorTimes, fromNanos, toNanos);
    }

    /** Answers held up, of requests sent within the window. */
    long heldUpBetween(long fromNanos, long toNanos) {
        return between(heldUpSendTimes, fromNanos, toNanos);
    }

    private static long between(Queue<Long> times, long fromNanos, long toNanos) {
        return times.stream().filter(at -> at >= fromNanos && at <= toNanos).count();
    }
}
