package io.orderflow.order;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.hibernate.exception.ConstraintViolationException;
import org.hibernate.id.uuid.UuidVersion7Strategy;

import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.outbox.OutboxWriter;
import io.orderflow.shared.security.Caller;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;

/** Orders in PostgreSQL; each method is one short transaction and returns views, never live entities. */
@ApplicationScoped
class OrderStore {

    /** The token made an order already (orders), or it was used or refused for this customer (order_tokens). */
    private static final Set<String> TOKEN_CONSTRAINTS = Set.of("uq_orders_token_hash", "pk_order_tokens");
    // The order, its items, its created event and its token's row, in one round trip.
    private static final String CREATE = """
            WITH stored AS (
                INSERT INTO orders (id, customer, token_hash, request_fingerprint, status, currency, total_amount, version,
                    stock_reserved, created_at, updated_at, pay_by)
                VALUES (:id, :customer, :tokenHash, :fingerprint, 'created', :currency, :total, 0, true, :at, :at, :payBy)
                RETURNING id, order_number),
            items AS (
                INSERT INTO order_items (order_id, line_no, sku, quantity, unit_price)
                SELECT stored.id, item.line_no - 1, item.sku, item.quantity, item.unit_price
                FROM stored, unnest(CAST(:skus AS varchar[]), CAST(:quantities AS int[]), CAST(:unitPrices AS numeric[]))
                    WITH ORDINALITY AS item (sku, quantity, unit_price, line_no)),
            event AS (
                INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at, trace_parent)
                SELECT :eventKind, stored.id, :eventKey, :eventPayload, 'PENDING', 0, :at, :at, NULLIF(:traceParent, '') FROM stored),
            token AS (
                INSERT INTO order_tokens (customer, token_hash, order_id)
                SELECT :customer, :tokenHash, stored.id FROM stored)
            SELECT order_number FROM stored""";
    // Waits for an order of the token still being inserted, and does nothing once it committed.
    private static final String REFUSE = """
            INSERT INTO order_tokens (customer, token_hash, refused_at) VALUES (:customer, :tokenHash, :at)
            ON CONFLICT (customer, token_hash) DO NOTHING""";
    private static final String WHOLE = "from Order o left join fetch o.items left join fetch o.history where o.id = ?1";

    private final EntityManager db;
    private final OutboxWriter outbox;
    private final OrderMapper views;
    /** A created order not paid within this long expires; the deadline package fires the expiry at payBy. */
    private final Duration paymentDeadline;

    public OrderStore(EntityManager db, OutboxWriter outbox, OrderMapper views,
            @ConfigProperty(name = "orders.payment-deadline", defaultValue = "30M") Duration paymentDeadline) {
        this.db = db;
        this.outbox = outbox;
        this.views = views;
        this.paymentDeadline = paymentDeadline;
    }

    /** A stored order as its creator sees it, with the fingerprint of the request that created it. */
    public record Stored(OrderView view, String customer, String requestFingerprint) {
    }

    /**
     * Inserts the order for a token with its items, its created event and its token's row, in the
     * caller's transaction (the one that prices it and reserves its stock), in one statement. Inserting
     * and letting the unique keys refuse a second order, or an order after a refusal, is what makes
     * creation exactly-once and a 410 final, whatever Redis remembers.
     *
     * @throws DuplicateOrderTokenException when the token already produced an order or was refused
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public OrderView insert(Caller caller, String tokenHash, String fingerprint, OrderPricing.PricedOrder priced) {
        // The order as the statement stores it; never attached to the session, only rendered.
        Order order = new Order();
        order.id = UuidVersion7Strategy.INSTANCE.generateUuid(null);
        order.customer = caller.name();
        order.status = OrderStatus.CREATED;
        order.currency = priced.currency();
        order.totalAmount = priced.total();
        // PostgreSQL keeps microseconds: the answer must show what a later read shows.
        order.createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        order.updatedAt = order.createdAt;
        order.payBy = order.createdAt.plus(paymentDeadline);
        order.items.addAll(priced.lines());
        OrderEventMessage event = OrderEventMessage.of(OrderStatusChanged.of(order, null, null));
        try {
            order.orderNumber = ((Number) db.createNativeQuery(CREATE)
                    .setParameter("id", order.id).setParameter("customer", order.customer).setParameter("tokenHash", tokenHash)
                    .setParameter("fingerprint", fingerprint).setParameter("currency", order.currency)
                    .setParameter("total", order.totalAmount).setParameter("at", order.createdAt)
                    .setParameter("payBy", order.payBy)
                    .setParameter("skus", order.items.stream().map(line -> line.sku).toArray(String[]::new))
                    .setParameter("quantities", order.items.stream().map(line -> line.quantity).toArray(Integer[]::new))
                    .setParameter("unitPrices", order.items.stream().map(line -> line.unitPrice).toArray(BigDecimal[]::new))
                    .setParameter("eventKind", OrderEventMessage.KIND).setParameter("eventKey", event.key())
                    .setParameter("eventPayload", outbox.payloadOf(event)).setParameter("traceParent", outbox.traceParent())
                    .getSingleResult()).longValue();
        } catch (PersistenceException e) {
            if (violatesTokenConstraint(e)) {
                throw new DuplicateOrderTokenException(e);
            }
            throw e;
        }
        outbox.written(OrderEventMessage.KIND, order.createdAt);
        return views.asCreated(order, caller);
    }

    private static boolean violatesTokenConstraint(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConstraintViolationException violation && TOKEN_CONSTRAINTS.contains(violation.getConstraintName())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Records that the caller's token was refused as invalid, so that no order can be made with it
     * afterwards. False when the token has an order of the caller's (committed before this, or while
     * this waited for it) or was refused before.
     */
    @Transactional
    public boolean refuse(Caller caller, String tokenHash) {
        return db.createNativeQuery(REFUSE).setParameter("customer", caller.name()).setParameter("tokenHash", tokenHash)
                .setParameter("at", Instant.now()).executeUpdate() == 1;
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

    /**
     * The order with its items and history, if the caller may see it: one statement, so one snapshot, and
     * no transaction to begin and commit around it.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<OrderView> find(UUID id, Caller caller) {
        return Order.<Order>find(WHOLE, id).singleResultOptional()
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
