package io.orderflow.web;

import java.util.List;
import java.util.Map;

/** What the checkout page shows: the cart as typed, its one-time order token, and what is wrong with it. */
public record CheckoutForm(String token, String currency, List<Row> rows, List<String> currencies, Map<String, String> errors,
        String message) {

    /** One line of the cart, as typed. */
    public record Row(String sku, String quantity, String unitPrice) {

        boolean isBlank() {
            return sku.isBlank() && quantity.isBlank() && unitPrice.isBlank();
        }
    }

    public String error(String field) {
        return errors.get(field);
    }

    /** What is wrong with a field of a row of the cart ({@code quantity} of row 1 is {@code quantity1}), or null. */
    public String rowError(int row, String field) {
        return errors.get(field + row);
    }
}
