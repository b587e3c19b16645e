package io.orderflow.warehouse;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.orderflow.customer.ShippingAddress;

/** What the warehouse is asked to ship for an order, and where to (null for an order placed before addresses were kept). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ShipmentRequest(UUID orderId, List<Item> items, ShippingAddress shippingAddress) {

    public record Item(String sku, int quantity) {
    }
}
