package io.orderflow.order;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;

/**
 * A change of an order's status, one of the {@link OrderStatusChanges} fired in the transaction that
 * made it. A creation ({@code from} and {@code event} null) is not fired: the statement that stores the
 * order writes its event.
 */
public record OrderStatusChanged(UUID orderId, String customer, OrderStatus from, OrderStatus to, OrderEvent event,
        BigDecimal totalAmount, String currency, Instant at) {

    static OrderStatusChanged of(Order order, OrderStatus from, OrderEvent event) {
        return new OrderStatusChanged(order.id, order.customer, from, order.status, event, order.totalAmount, order.currency,
                order.updatedAt);
    }
}
