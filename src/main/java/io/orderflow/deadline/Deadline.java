package io.orderflow.deadline;

import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;

/**
 * The deadlines an order has in a state: when it passes, the system fires the deadline's event. Each
 * is stored with the order, set by the transaction that creates it or moves it into the state, and
 * found through a partial index holding only the orders in that state (V9__order_deadlines.sql).
 */
enum Deadline {

    /** A created order not paid by {@code pay_by} expires. */
    PAYMENT(OrderStatus.CREATED, OrderEvent.EXPIRE, """
            SELECT id FROM orders
            WHERE status = 'created' AND pay_by <= :now
            ORDER BY pay_by LIMIT :limit FOR UPDATE SKIP LOCKED""",
            "SELECT min(pay_by) FROM orders WHERE status = 'created' AND pay_by <= :now",
            """
            UPDATE orders SET pay_by = CAST(:now AS timestamptz) + LEAST(:firstMillis * power(2, LEAST(deadline_failures, 30)), :mostMillis)
                * interval '1 millisecond', deadline_failures = deadline_failures + 1
            WHERE id = :id AND status = 'created'"""),

    /** A shipped order not delivered by {@code deliver_by} is confirmed delivered. */
    DELIVERY(OrderStatus.SHIPPED, OrderEvent.CONFIRM, """
            SELECT id FROM orders
            WHERE status = 'shipped' AND deliver_by <= :now
            ORDER BY deliver_by LIMIT :limit FOR UPDATE SKIP LOCKED""",
            "SELECT min(deliver_by) FROM orders WHERE status = 'shipped' AND deliver_by <= :now",
            """
            UPDATE orders SET deliver_by = CAST(:now AS timestamptz) + LEAST(:firstMillis * power(2, LEAST(deadline_failures, 30)), :mostMillis)
                * interval '1 millisecond', deadline_failures = deadline_failures + 1
            WHERE id = :id AND status = 'shipped'""");

    private final OrderStatus state;
    private final OrderEvent event;
    final String claimDue;
    final String oldestDue;
    final String putOff;

    Deadline(OrderStatus state, OrderEvent event, String claimDue, String oldestDue, String putOff) {
        this.state = state;
        this.event = event;
        this.claimDue = claimDue;
        this.oldestDue = oldestDue;
        this.putOff = putOff;
    }

    /** The state the deadline runs in; its queries name it, so that the partial index serves them. */
    public OrderStatus state() {
        return state;
    }

    /** The event fired when the deadline passes. */
    public OrderEvent event() {
        return event;
    }

    /** Its metrics' {@code event} tag: the event's name. */
    String label() {
        return event.wireName();
    }
}
