package io.orderflow.order;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.hibernate.Session;
import org.hibernate.jpa.HibernateHints;
import org.hibernate.type.StandardBasicTypes;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.orderflow.idempotency.IdempotencyRecords;
import io.orderflow.lifecycle.Actor;
import io.orderflow.lifecycle.Lifecycle;
import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.outbox.OutboxWriter;
import io.orderflow.shared.metrics.Counters;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.runtime.Startup;

/**
 * Moves orders through the lifecycle. Each transition is one short transaction: a conditional
 * UPDATE guarded by the event's allowed source states, read from {@link Lifecycle}, plus its
 * history row. A transition that already happened to the order answers as success.
 */
@Startup
@ApplicationScoped
public class OrderTransitions {

    /** The actor of the transitions the service fires itself, in the order's history. */
    public static final String SYSTEM = "system";
    /** The order with its items, which the answer shows; the lock is taken on the order's row only. */
    private static final String LOCKED = "from Order o join fetch o.items where o.id = ?1";
    // The guarded UPDATE of every transition, with its history rows, for one order or a batch. Paying also
    // needs the order's successful charge, recorded in the same transaction: no path pays an order without one.
    // Shipping starts the delivery deadline; every new state starts its deadline, if any, with no failed firing.
    // Each moved order's event is written here too, from what the caller knew of it before (an order's customer,
    // amount and currency never change). It answers the ids alone: pgjdbc sends a statement whose rows have no bounded size after a round trip of its own.
    private static final String MOVE = """
            WITH moved AS (
                UPDATE orders SET status = :to, version = version + 1, updated_at = :at,
                    deliver_by = coalesce(CAST(:deliverBy AS timestamptz), deliver_by), deadline_failures = 0
                WHERE id = ANY(CAST(:ids AS uuid[])) AND status IN (:sources)
                    AND (NOT CAST(:needsCharge AS boolean)
                        OR EXISTS (SELECT 1 FROM payments WHERE payments.order_id = orders.id AND payments.status = 'SUCCESS'))
                RETURNING id),
            history AS (
                INSERT INTO order_history (order_id, from_status, to_status, event, at, actor, command_id)
                SELECT id, :from, :to, :event, :at, :actor, CAST(:commandId AS varchar) FROM moved),
            events AS (
                INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at, trace_parent)
                SELECT :eventKind, moved.id, event.key, event.payload, 'PENDING', 0, :at, :at, NULLIF(:traceParent, '')
                FROM moved JOIN unnest(CAST(:eventOrderIds AS uuid[]), CAST(:eventKeys AS varchar[]), CAST(:eventPayloads AS text[]))
                    AS event (order_id, key, payload) ON event.order_id = moved.id)
            SELECT id FROM moved""";
    private static final String SNAPSHOT = "SELECT id, customer, status, total_amount, currency FROM orders WHERE id = :id";
    /** What the events of a batch's orders tell of them; none of it changes after an order is created. */
    private static final String BATCH_ORDERS = "SELECT id, customer, total_amount, currency FROM orders WHERE id = ANY(CAST(:ids AS uuid[]))";

    private final EntityManager db;
    private final Lifecycle lifecycle;
    private final OrderMapper views;
    private final Event<OrderStatusChanges> changes;
    private final IdempotencyRecords keys;
    private final OutboxWriter outbox;
    /** orders_transitions_total{event,outcome}, for every event and outcome. */
    private final Map<OrderEvent, Counters<Counted>> counted = new EnumMap<>(OrderEvent.class);
    /** A shipped order not delivered within this long is confirmed delivered; the deadline package fires it at deliverBy. */
    private final Duration deliveryConfirmAfter;

    public OrderTransitions(EntityManager db, Lifecycle lifecycle, OrderMapper views, Event<OrderStatusChanges> changes, IdempotencyRecords keys,
            OutboxWriter outbox, MeterRegistry metrics, @ConfigProperty(name = "orders.delivery-confirm-after", defaultValue = "14D") Duration deliveryConfirmAfter) {
        this.deliveryConfirmAfter = deliveryConfirmAfter;
        this.db = db;
        this.keys = keys;
        this.outbox = outbox;
        this.lifecycle = lifecycle;
        this.views = views;
        this.changes = changes;
        for (OrderEvent event : OrderEvent.values()) {
            counted.put(event, Counters.of(metrics, "orders.transitions", "Transitions asked for, by event and what came of them",
                    Tags.of("event", event.wireName()), "outcome", Counted.class));
        }
    }

    /** What came of a transition asked for. */
    private enum Counted {
        APPLIED,
        /** It had happened before: answered as success. */
        REPEATED,
        /** Not from the order's state: 409. */
        REJECTED,
        /** Not the caller's to fire: 403. */
        FORBIDDEN
    }

    /** What a caller about to fire an event needs to know of the order. */
    public record Snapshot(UUID id, String customer, OrderStatus status, BigDecimal totalAmount, String currency) {

        static Snapshot of(Order order) {
            return new Snapshot(order.id, order.customer, order.status, order.totalAmount, order.currency);
        }
    }

    /**
     * The order, if the caller may see it (else 404) and may ever fire the event (else 403); for
     * work that must happen before the transition, such as charging for it. One read: outside a
     * transaction it runs alone, without a commit's round trip.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Snapshot check(Caller caller, UUID id, OrderEvent event) {
        // Columns, not the entity: outside a transaction the request's persistence context lives on, and would answer a
        // second look (a pay looking again) with the order as it first read it.
        Snapshot order = db.unwrap(Session.class).createNativeQuery(SNAPSHOT, Object[].class)
                .addScalar("id", UUID.class).addScalar("customer", String.class).addScalar("status", String.class)
                .addScalar("total_amount", BigDecimal.class).addScalar("currency", String.class)
                .setParameter("id", id).getResultList().stream()
                .map(row -> new Snapshot((UUID) row[0], (String) row[1], OrderStatus.fromWireName((String) row[2]), (BigDecimal) row[3],
                        (String) row[4]))
                .filter(found -> caller.maySee(found.customer())).findFirst().orElseThrow(OrderService::notFound);
        requirePermitted(caller, order.customer(), event);
        return order;
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
        // The row lock makes the status and version read here the ones the UPDATE below starts from. Read-only: the
        // guarded UPDATE writes the row, so the flush before it has nothing of the entity to compare.
        Order order = permitted(caller, Order.<Order>find(LOCKED, id).withLock(LockModeType.PESSIMISTIC_WRITE)
                .withHint(HibernateHints.HINT_READ_ONLY, true).singleResultOptional(), event);
        Instant now = now();
        OrderStatusChanged change = new OrderStatusChanged(order.id, order.customer, order.status, lifecycle.targetOf(event), event,
                order.totalAmount, order.currency, now);
        if (moved(List.of(change), event, caller.name(), commandId, now) == 1) {
            count(event, Counted.APPLIED);
            return answered(new Outcome(after(order, event, now, caller), false));
        }
        if (order.history.stream().anyMatch(step -> step.event.equals(event.wireName()))) {
            count(event, Counted.REPEATED);
            return answered(new Outcome(views.current(order, caller, false), true));
        }
        count(event, Counted.REJECTED);
        List<OrderEvent> allowed = views.allowedActions(order.status, caller, order.customer);
        throw new ProblemException(Problem.of(ProblemCode.INVALID_TRANSITION, "An order that is " + order.status.wireName() + " cannot be " + pastTense(event) + ".")
                .with("currentStatus", order.status)
                .with("allowedActions", allowed));
    }

    /**
     * The order as the transition left it: the entity leaves the session and takes what the guarded UPDATE
     * wrote, rather than reading its row and items again.
     */
    private OrderView after(Order order, OrderEvent event, Instant now, Caller caller) {
        db.detach(order);
        order.status = lifecycle.targetOf(event);
        order.version++;
        order.updatedAt = now;
        Instant deliverBy = deliverBy(order.status, now);
        if (deliverBy != null) {
            order.deliverBy = deliverBy;
        }
        return views.current(order, caller, false);
    }

    /** When an order entering {@code to} at {@code at} is confirmed delivered unless it is before; null for other states. */
    private Instant deliverBy(OrderStatus to, Instant at) {
        return to == OrderStatus.SHIPPED ? at.plus(deliveryConfirmAfter) : null;
    }

    /** The request's Idempotency-Key keeps the answer in the transition's transaction. */
    private Outcome answered(Outcome outcome) {
        keys.keepWithEffect(OrderResponses.ok(outcome));
        return outcome;
    }

    /**
     * Fires a system event (a deadline's) on orders that the caller's transaction holds locked in state
     * {@code from}; returns how many it moved (those whose state had moved on are left alone).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public int fire(List<UUID> ids, OrderStatus from, OrderEvent event) {
        Instant now = now();
        OrderStatus to = lifecycle.targetOf(event);
        List<OrderStatusChanged> changing = db.unwrap(Session.class).createNativeQuery(BATCH_ORDERS, Object[].class)
                .addScalar("id", UUID.class).addScalar("customer", String.class).addScalar("total_amount", BigDecimal.class)
                .addScalar("currency", String.class)
                .setParameter("ids", ids.stream().map(UUID::toString).toArray(String[]::new))
                .getResultList().stream()
                .map(row -> new OrderStatusChanged((UUID) row[0], (String) row[1], from, to, event, (BigDecimal) row[2], (String) row[3], now))
                .toList();
        int applied = moved(changing, event, SYSTEM, null, now);
        count(event, Counted.APPLIED, applied);
        count(event, Counted.REJECTED, ids.size() - applied);
        return applied;
    }

    /**
     * The guarded UPDATE of the orders the changes name, from their state {@code from}, with their history rows and
     * order events in the same statement; then the changes made, for the observers that record follow-up work in the
     * same transaction. Returns how many orders the guard let through.
     */
    private int moved(List<OrderStatusChanged> changing, OrderEvent event, String actor, String commandId, Instant now) {
        if (changing.isEmpty()) {
            return 0;
        }
        OrderStatus from = changing.get(0).from();
        OrderStatus to = changing.get(0).to();
        List<OrderEventMessage> events = changing.stream().map(OrderEventMessage::of).toList();
        // Typed up front: left to itself, Hibernate works out each column's type from the result set's metadata on every run.
        Set<UUID> moved = Set.copyOf(db.unwrap(Session.class).createNativeQuery(MOVE, UUID.class).addScalar("id", UUID.class)
                .setParameter("ids", changing.stream().map(change -> change.orderId().toString()).toArray(String[]::new))
                .setParameterList("sources", lifecycle.sourcesOf(event).stream().map(OrderStatus::wireName).toList())
                .setParameter("needsCharge", event == OrderEvent.PAY)
                .setParameter("from", from.wireName()).setParameter("to", to.wireName()).setParameter("event", event.wireName())
                .setParameter("at", now).setParameter("deliverBy", deliverBy(to, now), StandardBasicTypes.INSTANT)
                .setParameter("actor", actor).setParameter("commandId", commandId)
                .setParameter("eventKind", OrderEventMessage.KIND)
                .setParameter("eventOrderIds", events.stream().map(message -> message.orderId().toString()).toArray(String[]::new))
                .setParameter("eventKeys", events.stream().map(OrderEventMessage::key).toArray(String[]::new))
                .setParameter("eventPayloads", events.stream().map(outbox::payloadOf).toArray(String[]::new))
                .setParameter("traceParent", outbox.traceParent())
                .getResultList());
        if (moved.isEmpty()) {
            return 0;
        }
        outbox.written(OrderEventMessage.KIND, now);
        changes.fire(new OrderStatusChanges(event, to, actor, changing.stream().filter(change -> moved.contains(change.orderId())).toList()));
        return moved.size();
    }

    /** The time a transition records, at the database's precision, so that the answer shows what was stored. */
    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    private Order permitted(Caller caller, Optional<Order> found, OrderEvent event) {
        Order order = found.filter(candidate -> caller.maySee(candidate.customer)).orElseThrow(OrderService::notFound);
        requirePermitted(caller, order.customer, event);
        return order;
    }

    private void requirePermitted(Caller caller, String customer, OrderEvent event) {
        Set<Actor> actors = OrderMapper.actors(caller, customer);
        if (!lifecycle.permits(actors, event)) {
            count(event, Counted.FORBIDDEN);
            throw new ProblemException(Problem.of(ProblemCode.FORBIDDEN, "You may not " + event.wireName() + " this order."));
        }
    }

    private void count(OrderEvent event, Counted outcome) {
        count(event, outcome, 1);
    }

    private void count(OrderEvent event, Counted outcome, int times) {
        if (times > 0) {
            counted.get(event).increment(outcome, times);
        }
    }

    private static String pastTense(OrderEvent event) {
        return switch (event) {
            case PAY -> "paid";
            case SHIP -> "shipped";
            case DELIVER -> "delivered";
            case CANCEL -> "cancelled";
            case EXPIRE -> "expired";
            case CONFIRM -> "confirmed delivered";
        };
    }
}
