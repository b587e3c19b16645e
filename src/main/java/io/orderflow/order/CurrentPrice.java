package io.orderflow.order;

/** The current unit price of an item whose cart showed another: one of the items of a {@code price-changed} answer. */
public record CurrentPrice(String sku, String unitPrice) {
}
