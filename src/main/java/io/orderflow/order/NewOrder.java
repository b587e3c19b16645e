package io.orderflow.order;

import java.math.BigDecimal;
import java.util.List;

/**
 * A validated order request with its stated prices at the currency's scale. Its fingerprint is the
 * SHA-256 of its canonical JSON, so {@code "12.5"} and {@code "12.50"}, or reordered members,
 * are the same request.
 */
public record NewOrder(String currency, List<Line> lines, String fingerprint) {

    /** An item; {@code statedPrice} is the unit price the request carried, or null. */
    public record Line(String sku, int quantity, BigDecimal statedPrice) {
    }
}
