package io.orderflow.order;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.orderflow.customer.ShippingAddress;
import io.orderflow.shared.json.Fingerprint;

/**
 * A validated order request with its stated prices at the currency's scale and its shipping address, if it
 * names one (else null), trimmed. Its fingerprint is that of its currency, items and address in canonical JSON,
 * so {@code "12.5"} and {@code "12.50"}, or reordered members, are the same request; a request without an
 * address has the fingerprint it had before addresses were taken.
 */
public record NewOrder(String currency, List<Line> lines, ShippingAddress address, Fingerprint fingerprint) {

    public static NewOrder of(String currency, List<Line> lines, ShippingAddress address) {
        Map<String, Object> fingerprinted = new HashMap<>();
        fingerprinted.put("currency", currency);
        fingerprinted.put("items", lines.stream().map(Line::fingerprinted).toList());
        if (address != null) {
            fingerprinted.put("shippingAddress", address.fingerprinted());
        }
        return new NewOrder(currency, List.copyOf(lines), address, Fingerprint.ofOrder(fingerprinted));
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
