package io.orderflow.web;

import java.util.List;

/**
 * What the checkout page shows: the products on sale with the quantities chosen, the one-time order
 * token, what the page has to say about the cart, and after a review its total.
 */
public record CheckoutForm(String token, List<Line> lines, String message, String cartError, String reviewedTotal) {

    /**
     * A product of the form: the price and currency as shown (posted back with the order), the
     * quantity as typed, and beside it an error (the order cannot be placed so) or a notice (what
     * changed since the page was loaded). {@code subtotal} is set on a reviewed cart's chosen lines.
     */
    public record Line(String sku, String name, String description, String price, String currency, String quantity, String error,
            String notice, String subtotal) {
    }
}
