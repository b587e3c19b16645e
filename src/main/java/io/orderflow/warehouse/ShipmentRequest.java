package io.orderflow.warehouse;

import java.util.List;
import java.util.UUID;

/** What the warehouse is asked to ship for an order. */
public record ShipmentRequest(UUID orderId, List<Item> items) {

    public record Item(String sku, int quantity) {
    }
}
