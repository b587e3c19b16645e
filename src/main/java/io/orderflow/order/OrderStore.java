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

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.customer.AddressStore;
import io.orderflow.customer.ShippingAddress;
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
    // The order, its items and its created event, in one round trip.
    private static final String CREATE = """
            WITH stored AS (
                INSERT INTO orders (id, customer, token_hash, request_fingerprint, status, currency, total_amount, version,
                    stock_reserved, created_at, updated_at, pay_by, shipping_address)
                VALUES (:id, :customer, :tokenHash, :fingerprint, 'created', :currency, :total, 0, true, :at, :at, :payBy,
                    CAST(:address AS jsonb))
                RETURNING id, order_number),
            items AS (
                INSERT INTO order_items (order_id, line_no, sku, quantity, unit_price, name)
                SELECT stored.id, item.line_no - 1, item.sku, item.quantity, item.unit_price, item.name
                FROM stored, unnest(CAST(:skus AS varchar[]), CAST(:quantities AS int[]), CAST(:unitPrices AS numeric[]),
                    CAST(:names AS varchar[])) WITH ORDINALITY AS item (sku, quantity, unit_price, name, line_no)),
            event AS (
                INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at, trace_parent)
                SELECT :eventKind, stored.id, :eventKey, :eventPayload, 'PENDING', 0, :at, :at, NULLIF(:traceParent, '') FROM stored)
            SELECT order_number FROM stored""";
    // The token's row with the answer its order's creation gives, which needs the order's number first.
    private static final String KEEP_TOKEN = """
            INSERT INTO order_tokens (customer, token_hash, order_id, answer) VALUES (:customer, :tokenHash, :orderId, :answer)""";
    private static final String BY_TOKEN = """
            SELECT o.id, o.customer, o.request_fingerprint, t.answer FROM orders o
            LEFT JOIN order_tokens t ON t.customer = o.customer AND t.token_hash = o.token_hash
            WHERE o.token_hash = :tokenHash""";
    // Waits for an order of the token still being inserted, and does nothing once it committed.
    private static final String REFUSE = """
            INSERT INTO order_tokens (customer, token_hash, refused_at) VALUES (:customer, :tokenHash, :at)
            ON CONFLICT (customer, token_hash) DO NOTHING""";
    private static final String WHOLE = "from Order o left join fetch o.items left join fetch o.history where o.id = ?1";

    private final EntityManager db;
    private final OutboxWriter outbox;
    private final OrderMapper views;
    private final ObjectMapper json;
    private final AddressStore addresses;
    /** A created order not paid within this long expires; the deadline package fires the expiry at payBy. */
    private final Duration paymentDeadline;

    public OrderStore(EntityManager db, OutboxWriter outbox, OrderMapper views, ObjectMapper json, AddressStore addresses,
            @ConfigProperty(name = "orders.payment-deadline", defaultValue = "30M") Duration paymentDeadline) {
        this.db = db;
        this.outbox = outbox;
        this.views = views;
        this.json = json;
        this.addresses = addresses;
        this.paymentDeadline = paymentDeadline;
    }

    /**
     * A stored order's creation: its answer as first given (JSON), whose it is, and the fingerprint of the
     * request that created it.
     */
    public record Stored(UUID id, String customer, String requestFingerprint, String answer) {
    }

    /**
     * Inserts the order for a token with its items and its created event, then its token's row with the
     * answer of the creation, in the caller's transaction (the one that prices it and reserves its stock).
     * Inserting and letting the unique keys refuse a second order, or an order after a refusal, is what
     * makes creation exactly-once and a 410 final, whatever Redis remembers.
     *
     * @throws DuplicateOrderTokenException when the token already produced an order or was refused
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Stored insert(Caller caller, String tokenHash, String fingerprint, OrderPricing.PricedOrder priced, ShippingAddress address) {
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
        order.shippingAddress = address;
        OrderEventMessage event = OrderEventMessage.of(OrderStatusChanged.of(order, null, null));
        try {
            order.orderNumber = ((Number) db.createNativeQuery(CREATE)
                    .setParameter("id", order.id).setParameter("customer", order.customer).setParameter("tokenHash", tokenHash)
                    .setParameter("fingerprint", fingerprint).setParameter("currency", order.currency)
                    .setParameter("total", order.totalAmount).setParameter("at", order.createdAt)
                    .setParameter("payBy", order.payBy).setParameter("address", addresses.write(address))
                    .setParameter("skus", order.items.stream().map(line -> line.sku).toArray(String[]::new))
                    .setParameter("quantities", order.items.stream().map(line -> line.quantity).toArray(Integer[]::new))
                    .setParameter("unitPrices", order.items.stream().map(line -> line.unitPrice).toArray(BigDecimal[]::new))
                    .setParameter("names", order.items.stream().map(line -> line.name).toArray(String[]::new))
                    .setParameter("eventKind", OrderEventMessage.KIND).setParameter("eventKey", event.key())
                    .setParameter("eventPayload", outbox.payloadOf(event)).setParameter("traceParent", outbox.traceParent())
                    .getSingleResult()).longValue();
            String answer = render(views.asCreated(order, caller));
            db.createNativeQuery(KEEP_TOKEN).setParameter("customer", order.customer).setParameter("tokenHash", tokenHash)
                    .setParameter("orderId", order.id).setParameter("answer", answer).executeUpdate();
            outbox.written(OrderEventMessage.KIND, order.createdAt);
            return new Stored(order.id, order.customer, fingerprint, answer);
        } catch (PersistenceException e) {
            if (violatesTokenConstraint(e)) {
                throw new DuplicateOrderTokenException(e);
            }
            throw e;
        }
    }

    private String render(OrderView view) {
        try {
            return json.writeValueAsString(view);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An order view could not be written as JSON", e);
        }
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

    /**
     * The order a token produced, with the answer its creation gave. An order created before answers were
     * kept with their token is rendered as it was created.
     */
    @Transactional
    public Optional<Stored> findByToken(String tokenHash, Caller caller) {
        List<?> rows = db.createNativeQuery(BY_TOKEN).setParameter("tokenHash", tokenHash).getResultList();
        return rows.stream().findFirst().map(row -> {
            Object[] columns = (Object[]) row;
            UUID id = (UUID) columns[0];
            String answer = columns[3] != null ? (String) columns[3] : render(views.asCreated(Order.findById(id), caller));
            return new Stored(id, (String) columns[1], (String) columns[2], answer);
        });
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
