package io.orderflow.payment;

import java.util.UUID;

/** A charge as the provider is asked for it: the order, an amount in the currency's minor units, and how to pay. */
public record ChargeRequest(UUID orderId, String amount, String currency, String paymentMethod) {
}
