package io.orderflow.proof.faults;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import io.orderflow.proof.faults.ProofClient.Answer;
import io.orderflow.proof.faults.ProofClient.Request;

/**
 * Orders of one product whose payment deadlines the proof brings close, and what the deployment's
 * database holds of their expiry. The product is made by staff through the API for the scenario
 * alone, so that its stock tells whether every expiry released what its order held.
 */
final class Expiries {

    /** Customers placing orders at once through the API. */
    private static final int BUYERS = 6;
    /** Orders written straight into the database, reserving one of the product each, as DeadlineScaleTest writes them. */
    private static final String INSERT_DUE = """
            WITH placed AS (
                INSERT INTO orders (id, customer, token_hash, request_fingerprint, status, currency, total_amount, version,
                    stock_reserved, created_at, updated_at, pay_by)
                SELECT gen_random_uuid(), 'alice', encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'hex'), repeat('0', 64),
                    'created', 'CNY', 1, 0, true, now(), now(), clock_timestamp() + CAST(? AS interval)
                FROM generate_series(1, ?)
                RETURNING id),
            lines AS (
                INSERT INTO order_items (order_id, line_no, sku, quantity, unit_price) SELECT id, 0, ?, 1, 1 FROM placed)
            SELECT id::text FROM placed""";
    /** Cancelled by one expiry of the system's and by nothing else: one history row, version 1. */
    private static final String EXPIRED_ONCE = """
            SELECT count(*) FROM orders o
            WHERE o.id = ANY(CAST(? AS uuid[])) AND o.status = 'cancelled' AND o.version = 1
              AND (SELECT count(*) FROM order_history h WHERE h.order_id = o.id) = 1
              AND EXISTS (SELECT 1 FROM order_history h WHERE h.order_id = o.id AND h.event = 'expire' AND h.actor = 'system'
                          AND h.from_status = 'created' AND h.to_status = 'cancelled')""";
    private static final String LATEST = """
            SELECT coalesce(CAST(max(extract(epoch FROM h.at - o.pay_by)) * 1000 AS bigint), -1)
            FROM orders o JOIN order_history h ON h.order_id = o.id AND h.event = 'expire'
            WHERE o.id = ANY(CAST(? AS uuid[]))""";
    private static final String CANCELLED_EVENTS = """
            SELECT count(*) FROM outbox_all
            WHERE kind = 'order-event' AND payload LIKE '%"type":"cancelled"%' AND order_id = ANY(CAST(? AS uuid[]))""";

    private final Deployment deployment;
    private final String scenario;
    private final String sku;

    private Expiries(Deployment deployment, String scenario, String sku) {
        this.deployment = deployment;
        this.scenario = scenario;
        this.sku = sku;
    }

    /** A new product with this much on hand, added by staff ({@code ops}) through the API. */
    static Expiries ofNewProduct(Deployment deployment, ProofClient client, String scenario, int onHand) {
        String sku = "DL-" + UUID.randomUUID().toString().substring(0, 8).toUpperCase(Locale.ROOT);
        String body = "{\"sku\":\"" + sku + "\",\"name\":\"Proof " + sku + "\",\"description\":\"\",\"price\":\"1.00\",\"currency\":\"CNY\","
                + "\"onHand\":" + onHand + ",\"active\":true}";
        Answer created = client.send(new Request("ops", "/products", body, null, scenario + "-product"), 0);
        if (created.status() != 201) {
            throw new IllegalStateException(scenario + ": adding product " + sku + " answered " + created);
        }
        return new Expiries(deployment, scenario, sku);
    }

    /** Orders of one of the product each, placed by alice and bob with a token each, spread over the instances; returns their ids. */
    List<String> placeThroughApi(ProofClient client, int orders) {
        ExecutorService buyers = Executors.newFixedThreadPool(BUYERS);
        try {
            List<CompletableFuture<String>> placed = IntStream.range(0, orders)
                    .mapToObj(number -> CompletableFuture.supplyAsync(() -> place(client, number), buyers)).toList();
            return placed.stream().map(CompletableFuture::join).toList();
        } finally {
            buyers.shutdown();
        }
    }

    private String place(ProofClient client, int number) {
        String user = number % 2 == 0 ? "alice" : "bob";
        String label = scenario + "-" + number;
        Answer token = client.send(new Request(user, "/orders/token", null, null, label + "-token"), number);
        if (token.status() != 201) {
            throw new IllegalStateException(label + ": the order token answered " + token);
        }
        String body = "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}";
        Answer order = client.send(new Request(user, "/orders", body, token.token(), label + "-order"), number);
        if (order.status() != 201) {
            throw new IllegalStateException(label + ": the order answered " + order);
        }
        return order.orderId();
    }

    /**
     * Writes created orders of one of the product each, due this long after they are written, and
     * reserves their stock, in one transaction; returns their ids.
     */
    List<String> insertDue(int orders, Duration dueIn) {
        try (Connection db = deployment.connect()) {
            db.setAutoCommit(false);
            List<String> ids = new ArrayList<>();
            try (PreparedStatement insert = db.prepareStatement(INSERT_DUE)) {
                insert.setString(1, interval(dueIn));
                insert.setInt(2, orders);
                insert.setString(3, sku);
                try (ResultSet rows = insert.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getString(1));
                    }
                }
            }
            try (PreparedStatement reserve = db.prepareStatement("UPDATE products SET reserved = reserved + ? WHERE sku = ?")) {
                reserve.setInt(1, orders);
                reserve.setString(2, sku);
                reserve.executeUpdate();
            }
            db.commit();
            return ids;
        } catch (SQLException e) {
            throw new IllegalStateException(scenario + ": writing due orders", e);
        }
    }

    /** Moves the orders' payment deadline to this long from now; returns how many created orders it moved. */
    long bringDue(List<String> ids, Duration dueIn) {
        return update("UPDATE orders SET pay_by = clock_timestamp() + CAST(? AS interval) WHERE status = 'created' AND id = ANY(CAST(? AS uuid[]))",
                interval(dueIn), ids);
    }

    long cancelled(List<String> ids) {
        return deployment.number("SELECT count(*) FROM orders WHERE status = 'cancelled' AND id = ANY(CAST(? AS uuid[]))", ids);
    }

    /** How many of the orders were cancelled by exactly one expiry and nothing else. */
    long expiredOnce(List<String> ids) {
        return deployment.number(EXPIRED_ONCE, ids);
    }

    /** How long after its deadline the latest of the orders' expiries fired, in ms; -1 while none has. */
    long latestMillis(List<String> ids) {
        return deployment.number(LATEST, ids);
    }

    /** 'cancelled' order events queued for the orders, delivered or not. */
    long cancelledEvents(List<String> ids) {
        return deployment.number(CANCELLED_EVENTS, ids);
    }

    /** {@code on_hand/reserved} of the product. */
    String stock() {
        try (Connection db = deployment.connect();
                PreparedStatement statement = Deployment.bind(db, "SELECT on_hand || '/' || reserved FROM products WHERE sku = ?", sku);
                ResultSet row = statement.executeQuery()) {
            return row.next() ? row.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(scenario + ": reading the stock of " + sku, e);
        }
    }

    private long update(String sql, Object... parameters) {
        try (Connection db = deployment.connect(); PreparedStatement statement = Deployment.bind(db, sql, parameters)) {
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static String interval(Duration duration) {
        return duration.toMillis() + " milliseconds";
    }
}
