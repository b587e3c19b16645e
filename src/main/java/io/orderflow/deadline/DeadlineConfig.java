package io.orderflow.deadline;

import java.time.Duration;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * How long a shipped order may wait for delivery before its deadline fires, and how much one firing takes on.
 * Plain properties rather than a mapping: the delivery duration sits directly under {@code orders.}, where
 * a mapping would claim every other feature's settings too. The poll interval is read by
 * {@link DeadlineScheduler}, and {@code orders.payment-deadline} by the order store, which sets a created order's payBy.
 */
@Singleton
class DeadlineConfig {

    private final Duration deliveryConfirmAfter;
    private final int batchSize;
    private final Duration retryFailedAfter;
    private final Duration retryFailedAtMost;

    DeadlineConfig(@ConfigProperty(name = "orders.delivery-confirm-after", defaultValue = "14D") Duration deliveryConfirmAfter,
            @ConfigProperty(name = "orders.deadlines.batch-size", defaultValue = "500") int batchSize,
            @ConfigProperty(name = "orders.deadlines.retry-failed-after", defaultValue = "1M") Duration retryFailedAfter,
            @ConfigProperty(name = "orders.deadlines.retry-failed-at-most", defaultValue = "1H") Duration retryFailedAtMost) {
        this.deliveryConfirmAfter = deliveryConfirmAfter;
        this.batchSize = batchSize;
        this.retryFailedAfter = retryFailedAfter;
        this.retryFailedAtMost = retryFailedAtMost;
    }

    /** A shipped order not delivered within this long is confirmed delivered. */
    Duration deliveryConfirmAfter() {
        return deliveryConfirmAfter;
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
