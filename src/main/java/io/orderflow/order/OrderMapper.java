package io.orderflow.order;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.orderflow.lifecycle.Actor;
import io.orderflow.lifecycle.Lifecycle;
import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.shared.money.Money;
import io.orderflow.shared.security.Caller;

/** Renders orders for a caller, with the actions that the order's state and the caller's role allow. */
@ApplicationScoped
class OrderMapper {

    static final String CUSTOMER = "customer";
    static final String STAFF = "staff";
    static final String SYSTEM = "system";
    private static final Set<Actor> CALLERS = EnumSet.of(Actor.OWNER, Actor.STAFF);

    private final Lifecycle lifecycle;
    private final FollowUps.Refunds refunds;
    private final FollowUps.Shipments shipments;

    public OrderMapper(Lifecycle lifecycle, FollowUps.Refunds refunds, FollowUps.Shipments shipments) {
        this.lifecycle = lifecycle;
        this.refunds = refunds;
        this.shipments = shipments;
    }

    /** The order as it is now; with its history, shipment and refund when {@code whole} (one order's read, not a list's). */
    public OrderView current(Order order, Caller caller, boolean whole) {
        if (!whole) {
            return view(order, order.status, order.version, order.updatedAt, caller, null, null, null);
        }
        List<OrderView.Step> history = order.history.stream()
                .map(t -> new OrderView.Step(t.from, t.to, t.event, actorOf(t, order.customer), t.at)).toList();
        OrderView.Shipment shipment = order.status == OrderStatus.SHIPPED || order.status == OrderStatus.DELIVERED
                ? shipments.referenceOf(order.id).map(reference -> new OrderView.Shipment("accepted", reference))
                        .orElse(new OrderView.Shipment("requested", null))
                : null;
        boolean paidThenCancelled = order.status == OrderStatus.CANCELLED && order.history.stream().anyMatch(t -> t.to == OrderStatus.PAID);
        OrderView.Refund refund = paidThenCancelled ? refunds.of(order.id).orElse(null) : null;
        return view(order, order.status, order.version, order.updatedAt, caller, shipment, refund, history);
    }

    /**
     * The order exactly as the request that created it was answered, whatever happened since:
     * what a replay of that request must return.
     */
    public OrderView asCreated(Order order, Caller caller) {
        return view(order, OrderStatus.CREATED, 0, order.createdAt, caller, null, null, null);
    }

    /**
     * Who applied a step of the history, as anyone who may see the order may be told: the events no
     * caller may fire are the system's; the others were the customer's own or a member of staff's,
     * whose name stays in the database.
     */
    private String actorOf(OrderTransition step, String customer) {
        if (!lifecycle.permits(CALLERS, OrderEvent.fromWireName(step.event))) {
            return SYSTEM;
        }
        return step.actor.equals(customer) ? CUSTOMER : STAFF;
    }

    /** In what capacities the caller acts on an order of {@code owner}. */
    public static Set<Actor> actors(Caller caller, String owner) {
        Set<Actor> actors = EnumSet.noneOf(Actor.class);
        if (caller.name().equals(owner)) {
            actors.add(Actor.OWNER);
        }
        if (caller.staff()) {
            actors.add(Actor.STAFF);
        }
        return actors;
    }

    /** The actions the order's state and the caller's capacity allow. */
    public List<OrderEvent> allowedActions(OrderStatus status, Caller caller, String owner) {
        return lifecycle.allowedActions(status, actors(caller, owner));
    }

    private OrderView view(Order order, OrderStatus status, long version, Instant updatedAt, Caller caller, OrderView.Shipment shipment,
            OrderView.Refund refund, List<OrderView.Step> history) {
        List<OrderEvent> allowed = allowedActions(status, caller, order.customer);
        List<OrderView.Item> items = order.items.stream()
                .map(line -> new OrderView.Item(line.sku, line.name == null ? line.sku : line.name, line.quantity,
                        Money.format(line.unitPrice, order.currency),
                        Money.format(line.unitPrice.multiply(BigDecimal.valueOf(line.quantity)), order.currency)))
                .toList();
        // A deadline shows while it applies: once the order has moved on, it no longer will fire.
        Instant payBy = status == OrderStatus.CREATED ? order.payBy : null;
        Instant deliverBy = status == OrderStatus.SHIPPED ? order.deliverBy : null;
        return new OrderView(order.id, order.orderNumber, order.customer, status, order.currency,
                Money.format(order.totalAmount, order.currency), items, order.shippingAddress, version, order.createdAt, updatedAt, payBy, deliverBy,
                allowed, shipment, refund, history);
    }
}
