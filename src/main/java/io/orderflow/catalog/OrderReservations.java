package io.orderflow.catalog;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.persistence.EntityManager;

import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.order.OrderStatusChanged;

/**
 * Settles an order's stock reservation exactly once: released when the order is cancelled (by its
 * customer, staff or its payment deadline), turned into a decrement of on hand when it ships. This
 * runs in the transaction of the guarded UPDATE that moved the order, which fires the change only
 * when it was applied, so a repeated or racing cancel releases once. Orders that hold no reservation
 * ({@code orders.stock_reserved} false, such as orders created before reservations) are left alone.
 */
@ApplicationScoped
public class OrderReservations {

    private static final String HOLDS_RESERVATION = "SELECT stock_reserved FROM orders WHERE id = :id";

    private final Stock stock;
    private final EntityManager db;

    public OrderReservations(Stock stock, EntityManager db) {
        this.stock = stock;
        this.db = db;
    }

    void onOrderChange(@Observes(during = TransactionPhase.IN_PROGRESS) OrderStatusChanged change) {
        boolean cancelled = change.to() == OrderStatus.CANCELLED;
        boolean shipped = change.event() == OrderEvent.SHIP;
        if (!(cancelled || shipped) || !holdsReservation(change.orderId())) {
            return;
        }
        List<StockLine> lines = stock.linesOf(change.orderId());
        if (cancelled) {
            stock.release(lines);
        } else {
            stock.ship(lines);
        }
    }

    private boolean holdsReservation(UUID orderId) {
        return (Boolean) db.createNativeQuery(HOLDS_RESERVATION).setParameter("id", orderId).getSingleResult();
    }
}
