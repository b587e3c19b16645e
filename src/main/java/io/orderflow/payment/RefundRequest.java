package io.orderflow.payment;

import java.util.UUID;

/** A refund as the provider is asked for it: the charge to give back (its provider reference) and how much. */
public record RefundRequest(UUID orderId, String amount, String currency, String charge) {

    RefundRequest of(String charge) {
        return new RefundRequest(orderId, amount, currency, charge);
    }
}
