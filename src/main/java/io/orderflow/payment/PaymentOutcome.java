package io.orderflow.payment;

/** What an attempt at a charge came to, whether a pay or recovery learned it: {@code orders_payments_total{outcome}}. */
enum PaymentOutcome {
    CHARGED, DECLINED,
    /** The provider refused the request (nothing was charged). */
    REFUSED,
    /** No certain answer: the attempt stays open. */
    UNAVAILABLE,
    /** Charged another amount or currency than asked, and refunded. */
    WRONG_AMOUNT,
    /** The customer must authenticate (3-D Secure) first. */
    REQUIRES_ACTION,
    RECOVERED_CHARGED, RECOVERED_NOT_CHARGED,
    /** Recovery asked and learned nothing certain yet. */
    UNKNOWN
}
