package io.orderflow.payment;

import java.util.UUID;

/** The body of a charge or refund: the order and an amount in the currency's minor units. */
public record MoneyCall(UUID orderId, String amount, String currency) {
}
