package io.orderflow.order;

import java.util.List;
import java.util.stream.Stream;

import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;

/**
 * The changes one transition made: one order's for a caller's transition, a whole batch's when the
 * system fires due deadlines. Fired inside the transaction that moved them, so that observers record
 * follow-up work (refunds, shipments, stock) atomically with them, a batch at a time. Their order events
 * were written by the statement that moved them. {@code actor} fired the event: the caller, or the system.
 */
public record OrderStatusChanges(OrderEvent event, OrderStatus to, String actor, List<OrderStatusChanged> all) {

    public OrderStatusChanges {
        all = List.copyOf(all);
    }

    /** The changes, if they were made by this event; none otherwise. */
    public Stream<OrderStatusChanged> by(OrderEvent wanted) {
        return event == wanted ? all.stream() : Stream.empty();
    }
}
