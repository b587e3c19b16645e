package io.orderflow.payment;

import java.time.Duration;

import io.orderflow.shared.downstream.Backoff;

/**
 * The wait before each retry of one call to the payment provider: exponential from the first delay,
 * doubled per retry up to the cap, with "equal jitter" (between half and all of that); a provider's
 * Retry-After instead, capped as well; and never beyond what is left of the call's budget.
 */
record RetryWaits(long initialDelayMillis, long maxDelayMillis, long budgetMillis) {

    /** Why a wait is as long as it is. */
    enum Reason {
        BACKOFF, RETRY_AFTER,
        /** Cut short by the end of the call's budget. */
        BUDGET
    }

    /** One wait, and why it is that long. */
    record Wait(long millis, Reason reason) {
    }

    /** The wait before retry {@code retry} (0 for the first), {@code elapsedMillis} into the call. */
    Wait next(int retry, Duration retryAfter, long elapsedMillis) {
        Wait wanted = retryAfter != null
                ? new Wait(Math.min(retryAfter.toMillis(), maxDelayMillis), Reason.RETRY_AFTER)
                : new Wait(Backoff.equalJitter(initialDelayMillis, maxDelayMillis, retry), Reason.BACKOFF);
        long remaining = Math.max(0, budgetMillis - elapsedMillis);
        return wanted.millis() <= remaining ? wanted : new Wait(remaining, Reason.BUDGET);
    }
}
