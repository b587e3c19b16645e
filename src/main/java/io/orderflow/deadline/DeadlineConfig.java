package io.orderflow.deadline;

import java.time.Duration;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * How much one firing of deadlines takes on, and how an order whose firing failed is put off. The
 * deadlines themselves are set where their state starts: {@code orders.payment-deadline} by the order
 * store (a created order's payBy), {@code orders.delivery-confirm-after} by the guarded UPDATE that ships
 * an order (its deliverBy); the poll interval is read by {@link DeadlineScheduler}.
 */
@Singleton
class DeadlineConfig {

    private final int batchSize;
    private final Duration retryFailedAfter;
    private final Duration retryFailedAtMost;

    DeadlineConfig(@ConfigProperty(name = "orders.deadlines.batch-size", defaultValue = "500") int batchSize,
            @ConfigProperty(name = "orders.deadlines.retry-failed-after", defaultValue = "1M") Duration retryFailedAfter,
            @ConfigProperty(name = "orders.deadlines.retry-failed-at-most", defaultValue = "1H") Duration retryFailedAtMost) {
        this.batchSize = batchSize;
        this.retryFailedAfter = retryFailedAfter;
        this.retryFailedAtMost = retryFailedAtMost;
    }

    /** How many due orders one transaction fires. */
    int batchSize() {
        return batchSize;
    }

    /** How long the deadline of an order whose firing failed is put off the first time; it doubles with each further failure. */
    Duration retryFailedAfter() {
        return retryFailedAfter;
    }

    /** The longest a failing order's deadline is put off at a time. */
    Duration retryFailedAtMost() {
        return retryFailedAtMost;
    }
}
