package io.orderflow.catalog;

/** A quantity of one product that an order reserves, releases or ships. */
public record StockLine(String sku, int quantity) {
}
