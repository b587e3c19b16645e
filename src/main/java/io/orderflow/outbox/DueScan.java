package io.orderflow.outbox;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where a relay's search for due messages starts. PostgreSQL here runs without autovacuum, so the
 * index the relay searches keeps an entry for every message that was ever due, long after it was
 * delivered; a search from the beginning would step over all of them, slower the longer the service
 * has run. A search therefore starts where the previous ones left nothing due behind them, and only
 * once a minute from the beginning, for what came in behind it: a message another instance wrote
 * in a transaction that committed late, or one whose claim was rolled back. A message this instance
 * writes moves the start back to it once its transaction commits, however late that is.
 */
final class DueScan {

    /** Messages other instances write are usually committed within this long after they fall due. */
    static final Duration LATE_COMMIT_MARGIN = Duration.ofSeconds(2);
    static final Duration FULL_SCAN_INTERVAL = Duration.ofMinutes(1);

    private final AtomicReference<Instant> start = new AtomicReference<>(Instant.EPOCH);
    /** The earliest due time committed since the last search began, if any: the next search starts no later. */
    private final AtomicReference<Instant> earliestCommit = new AtomicReference<>();
    private volatile Instant nextFullScan = Instant.EPOCH;

    /** Where a search at this moment starts (the beginning, for the first one and once a minute). */
    Instant start(Instant now) {
        if (!now.isBefore(nextFullScan)) {
            nextFullScan = now.plus(FULL_SCAN_INTERVAL);
            start.set(Instant.EPOCH);
        }
        return earliest(start.get(), earliestCommit.getAndSet(null));
    }

    /**
     * A search took, or found other relays taking, everything due up to {@code upTo}: the next one
     * starts there, or a little before now. What was committed since this one began, it may not have
     * seen; that moves the next start back once more.
     */
    void searched(Instant upTo, Instant now) {
        start.set(earliest(upTo, now.minus(LATE_COMMIT_MARGIN)));
    }

    /** A message due at this time was committed: the next search starts no later. */
    void include(Instant due) {
        earliestCommit.accumulateAndGet(due, (pending, committed) -> earliest(committed, pending));
    }

    /** Where the next search starts, for counting what is pending without stepping over what was delivered. */
    Instant current() {
        return earliest(start.get(), earliestCommit.get());
    }

    private static Instant earliest(Instant one, Instant other) {
        return other == null || one.isBefore(other) ? one : other;
    }
}
