package io.orderflow.order;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.lifecycle.Actor;
import io.orderflow.lifecycle.Lifecycle;
import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;

/**
 * Moves orders through the lifecycle. Each transition is one short transaction: a conditional
 * UPDATE guarded by the event's allowed source states, read from {@link Lifecycle}, plus its
 * history row. A transition that already happened to the order answers as success.
 */
@ApplicationScoped
public class OrderTransitions {

    private final Lifecycle lifecycle;
    private final OrderViews views;
    private final Event<OrderStatusChanged> changes;
    private final MeterRegistry metrics;

    public OrderTransitions(Lifecycle lifecycle, OrderViews views, Event<OrderStatusChanged> changes, MeterRegistry metrics) {
        this.lifecycle = lifecycle;
        this.views = views;
        this.changes = changes;
        this.metrics = metrics;
    }

    /** What a caller about to fire an event needs to know of the order. */
    public record Snapshot(UUID id, String customer, OrderStatus status, BigDecimal totalAmount, String currency) {

        static Snapshot of(Order order) {
            return new Snapshot(order.id, order.customer, order.status, order.totalAmount, order.currency);
        }
    }

    /**
     * The order, if the caller may see it (else 404) and may ever fire the event (else 403); for
     * work that must happen before the transition, such as charging for it.
     */
    @Transactional
    public Snapshot check(Caller caller, UUID id, OrderEvent event) {
        return Snapshot.of(permitted(caller, Order.<Order>findByIdOptional(id), event));
    }

    /** The order after the event, and whether the event had happened before (a replay). */
    public record Outcome(OrderView order, boolean replayed) {
    }

    /** The order as it is now, for work of the system's own (recovery, reconciliation). */
    @Transactional
    public Snapshot snapshot(UUID id) {
        return Snapshot.of(Order.<Order>findByIdOptional(id).orElseThrow(OrderService::notFound));
    }

    @Transactional
    public Outcome apply(Caller caller, UUID id, OrderEvent event, String commandId) {
        // The row lock makes the status read here the one the UPDATE below starts from.
        Order order = permitted(caller, Order.<Order>findByIdOptional(id, LockModeType.PESSIMISTIC_WRITE), event);

        OrderStatus from = order.status;
        OrderStatus to = lifecycle.targetOf(event);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        int updated = Order.update("status = ?1, version = version + 1, updatedAt = ?2 where id = ?3 and status in ?4",
                to, now, id, lifecycle.sourcesOf(event));
        if (updated == 1) {
            OrderTransition step = new OrderTransition();
            step.order = order;
            step.from = from;
            step.to = to;
            step.event = event.wireName();
            step.at = now;
            step.actor = caller.name();
            step.commandId = commandId;
            step.persist();
            Order.getEntityManager().flush();
            Order.getEntityManager().refresh(order);
            changes.fire(OrderStatusChanged.of(order, from, event));
            count(event, "applied");
            return new Outcome(views.current(order, caller, false), false);
        }
        if (order.history.stream().anyMatch(step -> step.event.equals(event.wireName()))) {
            count(event, "repeated");
            return new Outcome(views.current(order, caller, false), true);
        }
        count(event, "rejected");
        List<OrderEvent> allowed = views.allowedActions(order.status, caller, order.customer);
        throw new ProblemException(Problem.of(409, "invalid-transition", "Invalid transition",
                "An order that is " + order.status.wireName() + " cannot be " + pastTense(event) + ".")
                .with("currentStatus", order.status)
                .with("allowedActions", allowed));
    }

    private Order permitted(Caller caller, Optional<Order> found, OrderEvent event) {
        Order order = found.filter(candidate -> caller.maySee(candidate.customer)).orElseThrow(OrderService::notFound);
        Set<Actor> actors = OrderViews.actors(caller, order.customer);
        if (!lifecycle.permits(actors, event)) {
            count(event, "forbidden");
            throw new ProblemException(Problem.of(403, "forbidden", "Forbidden",
                    "You may not " + event.wireName() + " this order."));
        }
        return order;
    }

    private void count(OrderEvent event, String outcome) {
        metrics.counter("orders.transitions", "event", event.wireName(), "outcome", outcome).increment();
    }

    private static String pastTense(OrderEvent event) {
        return switch (event) {
            case PAY -> "paid";
            case SHIP -> "shipped";
            case DELIVER -> "delivered";
            case CANCEL -> "cancelled";
        };
    }
}
