package io.orderflow.order;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.hibernate.Session;
import org.hibernate.exception.ConstraintViolationException;
import org.hibernate.id.uuid.UuidVersion7Strategy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.catalog.Product;
import io.orderflow.catalog.Stock;
import io.orderflow.catalog.StockLine;
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
    // Everything placing an order reads, in one round trip: its products as they are now (a sku without one has
    // nulls), the customer's saved address and the order's number, taken once per statement.
    private static final String INPUTS = """
            SELECT line.sku, p.name, p.price, p.currency, p.active, p.on_hand, p.reserved,
                (SELECT CAST(address AS text) FROM customer_addresses WHERE customer = :customer) AS address,
                (SELECT nextval('order_number_seq')) AS order_number
            FROM unnest(CAST(:skus AS varchar[])) AS line (sku) LEFT JOIN products p ON p.sku = line.sku""";
    // Everything placing an order writes, in one round trip: the order, its items, its created event, its token's
    // row with the answer its creation gives, the address it names as the customer's (when that changed), and the
    // reservation of its stock. The reservation is the guarded conditional UPDATE (nothing of an inactive product,
    // never more than is available, rechecked on the newest row after waiting for a lock); the rows are locked in
    // sku order first, so that orders naming the same products in any order never deadlock. The order's and its
    // token's rows are inserted before any product is locked (the locking waits for the token's row): a refusal of
    // the token by a retry waits for them rather than for a flash sale's queue, and then replays the order. The statement answers
    // the positions (from 1) of the wanted skus it reserved: fewer than the order wants, and the caller rolls it all
    // back. Positions rather than skus: pgjdbc sends a statement whose rows have no bounded size after a round trip
    // of its own.
    private static final String CREATE = """
            WITH stored AS (
                INSERT INTO orders (id, order_number, customer, token_hash, request_fingerprint, status, currency, total_amount,
                    version, stock_reserved, created_at, updated_at, pay_by, shipping_address)
                VALUES (:id, :orderNumber, :customer, :tokenHash, :fingerprint, 'created', :currency, :total, 0, true, :at, :at,
                    :payBy, CAST(:address AS jsonb))
                RETURNING id),
            items AS (
                INSERT INTO order_items (order_id, line_no, sku, quantity, unit_price, name)
                SELECT stored.id, item.line_no - 1, item.sku, item.quantity, item.unit_price, item.name
                FROM stored, unnest(CAST(:skus AS varchar[]), CAST(:quantities AS int[]), CAST(:unitPrices AS numeric[]),
                    CAST(:names AS varchar[])) WITH ORDINALITY AS item (sku, quantity, unit_price, name, line_no)),
            event AS (
                INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at, trace_parent)
                SELECT :eventKind, stored.id, :eventKey, :eventPayload, 'PENDING', 0, :at, :at, NULLIF(:traceParent, '') FROM stored),
            token AS (
                INSERT INTO order_tokens (customer, token_hash, order_id, answer) SELECT :customer, :tokenHash, stored.id, :answer FROM stored
                RETURNING order_id),
            address AS (
                INSERT INTO customer_addresses (customer, address, updated_at)
                SELECT :customer, CAST(:address AS jsonb), :at WHERE CAST(:keepAddress AS boolean)
                ON CONFLICT (customer) DO UPDATE SET address = excluded.address, updated_at = excluded.updated_at
                WHERE customer_addresses.address IS DISTINCT FROM excluded.address),
            wanted AS (
                SELECT * FROM unnest(CAST(:wantedSkus AS varchar[]), CAST(:wantedQuantities AS int[])) AS line (sku, quantity)),
            locked AS (
                SELECT p.sku FROM products p JOIN wanted ON wanted.sku = p.sku WHERE EXISTS (SELECT 1 FROM token)
                ORDER BY p.sku FOR UPDATE OF p),
            reserved AS (
                UPDATE products p SET reserved = p.reserved + wanted.quantity, updated_at = now()
                FROM wanted, locked, stored
                WHERE p.sku = wanted.sku AND locked.sku = p.sku AND p.active AND p.on_hand - p.reserved >= wanted.quantity
                RETURNING p.sku)
            SELECT CAST(array_position(CAST(:wantedSkus AS varchar[]), sku) AS int) FROM reserved""";
    private static final String BY_TOKEN = """
            SELECT o.id, o.customer, o.request_fingerprint, t.answer FROM orders o
            LEFT JOIN order_tokens t ON t.customer = o.customer AND t.token_hash = o.token_hash
            WHERE o.token_hash = :tokenHash""";
    // Waits for an order of the token still being inserted, and does nothing once it committed.
    private static final String REFUSE = """
            INSERT INTO order_tokens (customer, token_hash, refused_at) VALUES (:customer, :tokenHash, :at)
            ON CONFLICT (customer, token_hash) DO NOTHING""";

    // Every filter of an order list in one statement, each left out by a null. PostgreSQL plans it for the values
    // given, so a filter given uses its index (customer, status, order number, creation time) and one left out costs
    // nothing; a generic plan, which could use none of them, costs more by its estimates and is not chosen. An instant
    // is bound without a type (pgjdbc leaves timestamp or timestamptz to the server): its null test is cast.
    private static final String LISTED = """
            (:customer is null or customer = :customer)
            and (:status is null or status = :status)
            and (:orderNumber is null or orderNumber = :orderNumber)
            and (cast(:createdFrom as Instant) is null or createdAt >= :createdFrom)
            and (cast(:createdTo as Instant) is null or createdAt < :createdTo)
            and id < :after""";
    /** Greater than every id: the cursor of the first page, which keeps the cursor's predicate free of a null. */
    private static final UUID NEWEST = new UUID(-1L, -1L);

    private final EntityManager db;
    private final OutboxWriter outbox;
    private final OrderMapper views;
    private final OrderReadStore reads;
    private final ObjectMapper json;
    private final AddressStore addresses;
    private final Stock stock;
    /** A created order not paid within this long expires; the deadline package fires the expiry at payBy. */
    private final Duration paymentDeadline;

    public OrderStore(EntityManager db, OutboxWriter outbox, OrderMapper views, OrderReadStore reads, ObjectMapper json, AddressStore addresses, Stock stock,
            @ConfigProperty(name = "orders.payment-deadline", defaultValue = "30M") Duration paymentDeadline) {
        this.db = db;
        this.outbox = outbox;
        this.views = views;
        this.reads = reads;
        this.json = json;
        this.addresses = addresses;
        this.stock = stock;
        this.paymentDeadline = paymentDeadline;
    }

    /**
     * A stored order's creation: its answer as first given (JSON), whose it is, and the fingerprint of the
     * request that created it.
     */
    public record Stored(UUID id, String customer, String requestFingerprint, String answer) {
    }

    /**
     * What placing an order reads before it writes: the products it names as they are now (by sku; a sku without a
     * product is absent), the customer's saved address, and the number the order will have.
     */
    public record Inputs(Map<String, Product> products, Optional<ShippingAddress> savedAddress, long orderNumber) {
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public Inputs inputs(Caller caller, Collection<String> skus) {
        // Typed up front: left to itself, Hibernate works out each column's type from the result set's metadata on every
        // run, and for a text or char column builds (and throws away) an exception each time.
        List<Object[]> rows = db.unwrap(Session.class).createNativeQuery(INPUTS, Object[].class).addScalar("sku", String.class)
                .addScalar("name", String.class).addScalar("price", BigDecimal.class).addScalar("currency", String.class)
                .addScalar("active", Boolean.class).addScalar("on_hand", Integer.class).addScalar("reserved", Integer.class)
                .addScalar("address", String.class).addScalar("order_number", Long.class)
                .setParameter("customer", caller.name()).setParameter("skus", skus.stream().distinct().toArray(String[]::new))
                .getResultList();
        Map<String, Product> products = new HashMap<>();
        Optional<ShippingAddress> saved = Optional.empty();
        long orderNumber = 0;
        for (Object[] columns : rows) {
            if (columns[1] != null) {
                Product product = new Product();
                product.sku = (String) columns[0];
                product.name = (String) columns[1];
                product.price = (BigDecimal) columns[2];
                product.currency = (String) columns[3];
                product.active = (Boolean) columns[4];
                product.onHand = ((Number) columns[5]).intValue();
                product.reserved = ((Number) columns[6]).intValue();
                products.put(product.sku, product);
            }
            saved = Optional.ofNullable((String) columns[7]).map(addresses::read);
            orderNumber = ((Number) columns[8]).longValue();
        }
        return new Inputs(products, saved, orderNumber);
    }

    /**
     * Inserts the order for a token with its items, its created event and its token's row with the answer of the
     * creation, keeps the address as the customer's when {@code keepAddress}, and reserves its stock, in one
     * statement of the caller's transaction (the one that read its inputs). Inserting and letting the unique keys
     * refuse a second order, or an order after a refusal, is what makes creation exactly-once and a 410 final,
     * whatever Redis remembers.
     *
     * @throws DuplicateOrderTokenException when the token already produced an order or was refused
     * @throws io.orderflow.shared.problem.ProblemException 409 {@code out-of-stock} when a line could not be reserved
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Stored insert(Caller caller, String tokenHash, String fingerprint, OrderPricing.PricedOrder priced, ShippingAddress address,
            boolean keepAddress, long orderNumber) {
        // The order as the statement stores it; never attached to the session, only rendered.
        Order order = new Order();
        order.id = UuidVersion7Strategy.INSTANCE.generateUuid(null);
        order.orderNumber = orderNumber;
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
        String answer = render(views.asCreated(order, caller));
        SortedMap<String, Integer> wanted = Stock.merged(order.items.stream().map(line -> new StockLine(line.sku, line.quantity)).toList());
        List<?> reserved;
        try {
            reserved = db.createNativeQuery(CREATE)
                    .setParameter("id", order.id).setParameter("orderNumber", orderNumber).setParameter("customer", order.customer)
                    .setParameter("tokenHash", tokenHash).setParameter("fingerprint", fingerprint).setParameter("currency", order.currency)
                    .setParameter("total", order.totalAmount).setParameter("at", order.createdAt)
                    .setParameter("payBy", order.payBy).setParameter("address", addresses.write(address))
                    .setParameter("keepAddress", keepAddress)
                    .setParameter("skus", order.items.stream().map(line -> line.sku).toArray(String[]::new))
                    .setParameter("quantities", order.items.stream().map(line -> line.quantity).toArray(Integer[]::new))
                    .setParameter("unitPrices", order.items.stream().map(line -> line.unitPrice).toArray(BigDecimal[]::new))
                    .setParameter("names", order.items.stream().map(line -> line.name).toArray(String[]::new))
                    .setParameter("eventKind", OrderEventMessage.KIND).setParameter("eventKey", event.key())
                    .setParameter("eventPayload", outbox.payloadOf(event)).setParameter("traceParent", outbox.traceParent())
                    .setParameter("answer", answer)
                    .setParameter("wantedSkus", wanted.keySet().toArray(String[]::new))
                    .setParameter("wantedQuantities", wanted.values().toArray(Integer[]::new))
                    .getResultList();
        } catch (PersistenceException e) {
            if (violatesTokenConstraint(e)) {
                throw new DuplicateOrderTokenException(e);
            }
            throw e;
        }
        if (reserved.size() < wanted.size()) {
            List<String> skus = List.copyOf(wanted.keySet());
            List<String> shortSkus = skus.stream().filter(sku -> !reserved.contains(skus.indexOf(sku) + 1)).toList();
            throw stock.shortOf(shortSkus, wanted);
        }
        outbox.written(OrderEventMessage.KIND, order.createdAt);
        return new Stored(order.id, order.customer, fingerprint, answer);
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
    public Optional<OrderView> find(UUID id, Caller caller) {
        return reads.find(id)
                .filter(order -> caller.maySee(order.customer))
                .map(order -> views.current(order, caller, true));
    }

    /** The orders that pass the filter (a customer's are always their own), newest first, after the order {@code after} when given. */
    @Transactional
    public List<OrderView> list(Caller caller, OrderQuery.Filter filter, UUID after, int limit) {
        Parameters parameters = Parameters.with("customer", filter.customer()).and("status", filter.status())
                .and("orderNumber", filter.orderNumber()).and("createdFrom", filter.createdFrom()).and("createdTo", filter.createdTo())
                .and("after", after == null ? NEWEST : after);
        return Order.<Order>find(LISTED, Sort.descending("id"), parameters)
                .range(0, limit - 1).list().stream()
                .map(order -> views.current(order, caller, false))
                .toList();
    }
}
