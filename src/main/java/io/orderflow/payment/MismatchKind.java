package io.orderflow.payment;

import io.orderflow.shared.metrics.Counters;

/**
 * What a charge that nothing accounts for is, as its report's {@code kind} and {@code orders_reconciliation_mismatches_total{kind}}
 * name it: {@link #label}.
 */
enum MismatchKind {
    /** Not made by this deployment: left alone. */
    FOREIGN,
    /** A key of ours that no payment has. */
    UNKNOWN_CHARGE,
    /** The payment says refunded, the provider does not. */
    REFUND_NOT_AT_PROVIDER,
    CHARGE_OF_FAILED_PAYMENT,
    /** Reported for staff. */
    WRONG_AMOUNT, WRONG_CURRENCY,
    CHARGE_WITHOUT_PAID_ORDER,
    /** A further charge of an order paid by another. */
    DUPLICATE_CHARGE;

    String label() {
        return Counters.label(this);
    }
}
