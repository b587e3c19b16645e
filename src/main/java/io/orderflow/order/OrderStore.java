package io.orderflow.order;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.transaction.Transactional;

import org.hibernate.exception.ConstraintViolationException;

import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.shared.security.Caller;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;

/** Orders in PostgreSQL; each method is one short transaction and returns views, never live entities. */
@ApplicationScoped
public class OrderStore {

    private static final String TOKEN_CONSTRAINT = "uq_orders_token_hash";

    private final OrderViews views;
    private final Event<OrderStatusChanged> changes;

    public OrderStore(OrderViews views, Event<OrderStatusChanged> changes) {
        this.views = views;
        this.changes = changes;
    }

    /** A stored order as its creator sees it, with the fingerprint of the request that created it. */
    public record Stored(OrderView view, String customer, String requestFingerprint) {
    }

    /**
     * Inserts the order for a token, in the caller's transaction (the one that reserved its stock).
     * Inserting and letting the UNIQUE constraint refuse a second order for the token is what makes
     * creation exactly-once, whatever Redis remembers.
     *
     * @throws DuplicateOrderTokenException when the token already produced an order
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public OrderView insert(Caller caller, String tokenHash, String fingerprint, OrderPricing.PricedOrder priced) {
        Order order = new Order();
        order.customer = caller.name();
        order.tokenHash = tokenHash;
        order.requestFingerprint = fingerprint;
        order.status = OrderStatus.CREATED;
        order.currency = priced.currency();
        order.totalAmount = priced.total();
        order.stockReserved = true;
        order.version = 0;
        // PostgreSQL keeps microseconds: the answer must show what a later read shows.
        order.createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        order.updatedAt = order.createdAt;
        order.items.addAll(priced.lines());
        try {
            order.persistAndFlush();
        } catch (ConstraintViolationException e) {
            if (TOKEN_CONSTRAINT.equals(e.getConstraintName())) {
                throw new DuplicateOrderTokenException(e);
            }
            throw e;
        }
        changes.fire(OrderStatusChanged.of(order, null, null));
        return views.asCreated(order, caller);
    }

    /** The order a token produced, as its creation was answered. */
    @Transactional
    public Optional<Stored> findByToken(String tokenHash, Caller caller) {
        return Order.<Order>find("tokenHash", tokenHash).firstResultOptional()
                .map(order -> new Stored(views.asCreated(order, caller), order.customer, order.requestFingerprint));
    }

    /** The order as created, for a replay of its creation. */
    @Transactional
    public Optional<Stored> findAsCreated(UUID id, Caller caller) {
        return Order.<Order>findByIdOptional(id)
                .map(order -> new Stored(views.asCreated(order, caller), order.customer, order.requestFingerprint));
    }

    /** The order with its history, if the caller may see it. */
    @Transactional
    public Optional<OrderView> find(UUID id, Caller caller) {
        return Order.<Order>findByIdOptional(id)
                .filter(order -> caller.maySee(order.customer))
                .map(order -> views.current(order, caller, true));
    }

    /** The caller's orders (staff: all), newest first, after the order {@code after} when given. */
    @Transactional
    public List<OrderView> list(Caller caller, OrderStatus status, UUID after, int limit) {
        StringBuilder query = new StringBuilder("1 = 1");
        Parameters parameters = new Parameters();
        if (!caller.staff()) {
            query.append(" and customer = :customer");
            parameters.and("customer", caller.name());
        }
        if (status != null) {
            query.append(" and status = :status");
            parameters.and("status", status);
        }
        if (after != null) {
            query.append(" and id < :after");
            parameters.and("after", after);
        }
        return Order.<Order>find(query.toString(), Sort.descending("id"), parameters)
                .range(0, limit - 1).list().stream()
                .map(order -> views.current(order, caller, false))
                .toList();
    }
}
