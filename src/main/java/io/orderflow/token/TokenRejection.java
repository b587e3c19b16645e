package io.orderflow.token;

/** Why an order token was refused: {@code orders_tokens_rejected_total{reason}}. */
public enum TokenRejection {
    /** The customer holds the most unused tokens allowed. */
    TOO_MANY_OUTSTANDING,
    /** Another request was creating an order with it for longer than the wait. */
    IN_USE,
    /** Used before for a different order. */
    REUSED,
    /** Unknown, expired or not the caller's. */
    INVALID
}
