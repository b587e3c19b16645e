package io.orderflow.web;

import java.util.List;
import java.util.Map;

/**
 * What the checkout page shows: the products on sale with the quantities chosen, the delivery address, the
 * one-time order token, what the page has to say about the cart (a message, and a summary of every mistake
 * linking to its field), and after a review its total.
 */
public record CheckoutForm(String token, List<Line> lines, AddressForm address, Map<String, String> addressErrors,
        List<AddressForm.Country> countries, String message, List<Mistake> mistakes, String cartError, String reviewedTotal) {

    /** One entry of the summary of mistakes: what is wrong, and the id of the field it is about. */
    public record Mistake(String field, String text) {
    }

    /**
     * A product of the form: the price and currency as shown (posted back with the order), the
     * quantity as typed, and beside it an error (the order cannot be placed so) or a notice (what
     * changed since the page was loaded). {@code subtotal} is set on a reviewed cart's chosen lines.
     */
    public record Line(String sku, String name, String description, String price, String currency, String quantity, String error,
            String notice, String subtotal) {
    }
}
