package io.orderflow.order;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;

import io.orderflow.catalog.Stock;
import io.orderflow.catalog.StockLine;
import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;

/**
 * Settles an order's stock reservation exactly once: released when the order is cancelled (by its
 * customer, staff or its payment deadline), turned into a decrement of on hand when it ships. This
 * runs in the transaction of the guarded UPDATE that moved the order, which fires the change only
 * when it was applied, so a repeated or racing cancel releases once. Orders that hold no reservation
 * ({@code orders.stock_reserved} false, such as orders created before reservations) are left alone.
 */
@ApplicationScoped
class OrderReservations {

    private final Stock stock;

    OrderReservations(Stock stock) {
        this.stock = stock;
    }

    /** A batch of expiries releases its orders' stock in one UPDATE per product. */
    void onOrderChange(@Observes(during = TransactionPhase.IN_PROGRESS) OrderStatusChanges changes) {
        boolean cancelled = changes.to() == OrderStatus.CANCELLED;
        boolean shipped = changes.event() == OrderEvent.SHIP;
        if (!(cancelled || shipped)) {
            return;
        }
        List<StockLine> lines = stock.reservedLinesOf(changes.all().stream().map(OrderStatusChanged::orderId).toList());
        if (lines.isEmpty()) {
            return;
        }
        if (cancelled) {
            stock.release(lines);
        } else {
            stock.ship(lines);
        }
    }
}
