package io.orderflow.web;

import java.util.List;
import java.util.Map;

/** What the checkout page shows: the cart as typed, its one-time order token, and what is wrong with it. */
public record CheckoutForm(String token, String currency, List<Row> rows, List<String> currencies, Map<String, String> errors,
        String message) {

    /** One line of the cart, as typed, with what is wrong with each of its fields (or null). */
    public record Row(String sku, String quantity, String unitPrice, String skuError, String quantityError, String unitPriceError) {

        Row(String sku, String quantity, String unitPrice) {
            this(sku, quantity, unitPrice, null, null, null);
        }

        boolean isBlank() {
            return sku.isBlank() && quantity.isBlank() && unitPrice.isBlank();
        }

        Row withErrors(Map<String, String> errors, int index) {
            return new Row(sku, quantity, unitPrice, errors.get("sku" + index), errors.get("quantity" + index), errors.get("unitPrice" + index));
        }
    }

    public String currencyError() {
        return errors.get("currency");
    }

    public String itemsError() {
        return errors.get("items");
    }
}
