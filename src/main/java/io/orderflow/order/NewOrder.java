package io.orderflow.order;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.orderflow.shared.json.Fingerprint;

/**
 * A validated order request with its stated prices at the currency's scale. Its fingerprint is that of
 * its currency and items in canonical JSON, so {@code "12.5"} and {@code "12.50"}, or reordered members,
 * are the same request.
 */
public record NewOrder(String currency, List<Line> lines, Fingerprint fingerprint) {

    public static NewOrder of(String currency, List<Line> lines) {
        return new NewOrder(currency, List.copyOf(lines),
                Fingerprint.ofOrder(Map.of("currency", currency, "items", lines.stream().map(Line::fingerprinted).toList())));
    }

    /** An item; {@code statedPrice} is the unit price the request carried, or null. */
    public record Line(String sku, int quantity, BigDecimal statedPrice) {

        private Map<String, Object> fingerprinted() {
            Map<String, Object> item = new HashMap<>();
            item.put("quantity", quantity);
            item.put("sku", sku);
            if (statedPrice != null) {
                item.put("unitPrice", statedPrice);
            }
            return item;
        }
    }
}
