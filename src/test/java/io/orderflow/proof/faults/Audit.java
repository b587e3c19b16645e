package io.orderflow.proof.faults;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.orderflow.proof.faults.Cart.Exchange;
import io.orderflow.proof.faults.Cart.Kind;
import io.orderflow.proof.faults.ProofClient.Answer;
import io.orderflow.shared.Hashing;

/**
 * What the clients of a scenario were told, checked against what PostgreSQL and the sandbox ledger
 * hold once the service has settled: every order a client was given exists for its token; no cart has
 * two orders; every answered pay or cancel took effect; no order was charged twice; every charge is
 * either the one payment of a paid order or refunded exactly once; every request, sent again, gets
 * the answer its client got.
 */
final class Audit {

    /** What one scenario's audit found; each list names what went wrong, for the failure message. */
    record Findings(int carts, int orders, int charges, int refunds, int chargesNotTaken, long unconsumedEvents, List<String> brokenOff,
            List<String> duplicates, List<String> lost, List<String> unconverged) {
    }

    private static final Duration SETTLE_LIMIT = Duration.ofSeconds(120);
    /** The consumer polls every second; what it has not read by then it is not going to read. */
    private static final Duration EVENT_LIMIT = Duration.ofSeconds(15);
    private static final int RESENDERS = 8;
    private static final Set<String> PAID = Set.of("paid", "shipped", "delivered");
    /** Every charge of these orders the provider did not take, with its key and the status of the payment under that key (null: none). */
    private static final String CHARGES_NOT_TAKEN = """
            SELECT e.idempotency_key, e.status, p.status FROM sandbox_effects e LEFT JOIN payments p ON p.idempotency_key = e.idempotency_key
            WHERE e.kind = 'charge' AND e.status <> 'succeeded' AND e.order_id = ANY(?::uuid[])""";

    private final Deployment deployment;
    private final ProofClient client;

    Audit(Deployment deployment, ProofClient client) {
        this.deployment = deployment;
        this.client = client;
    }

    /**
     * Waits until the service has settled by itself (readiness UP everywhere, the outbox drained, no
     * payment of these carts' orders still unknown), then checks the carts; not settling is a finding.
     */
    Findings check(List<Cart> carts) {
        List<String> unconverged = new ArrayList<>();
        if (!Processes.await(SETTLE_LIMIT, deployment::allReady)) {
            unconverged.add("not every instance answers /q/health/ready with UP");
        }
        Map<String, Cart> cartByTokenHash = new HashMap<>();
        carts.forEach(cart -> cart.tokens.forEach(token -> cartByTokenHash.put(Hashing.sha256Hex(token), cart)));
        Map<String, StoredOrder> orders = ordersOf(cartByTokenHash.keySet());
        String[] orderIds = orders.values().stream().map(StoredOrder::id).toArray(String[]::new);
        // Payments settle first: settling a charge of an order cancelled meanwhile queues its refund in the outbox.
        if (!Processes.await(SETTLE_LIMIT, () -> unknownPayments(orderIds) == 0)) {
            unconverged.add(unknownPayments(orderIds) + " payments still of unknown outcome");
        }
        if (!Processes.await(SETTLE_LIMIT, () -> pendingOutbox() == 0)) {
            unconverged.add(pendingOutbox() + " outbox messages still PENDING");
        }
        long dead = count("SELECT count(*) FROM outbox WHERE status = 'DEAD'");
        if (dead > 0) {
            unconverged.add(dead + " outbox messages dead-lettered");
        }
        // Every order event published to the stream reaches its consumer, which records it.
        long unconsumedEvents = Processes.await(EVENT_LIMIT, () -> unconsumedEvents(orderIds) == 0) ? 0 : unconsumedEvents(orderIds);
        // Read after payments settled: statuses and charges may have changed meanwhile.
        orders = ordersOf(cartByTokenHash.keySet());
        Money money = money(orderIds);

        List<String> duplicates = new ArrayList<>();
        List<String> lost = new ArrayList<>();
        Map<Cart, List<StoredOrder>> ordersByCart = new HashMap<>();
        orders.forEach((hash, order) -> ordersByCart.computeIfAbsent(cartByTokenHash.get(hash), cart -> new ArrayList<>()).add(order));
        for (Cart cart : carts) {
            List<StoredOrder> stored = ordersByCart.getOrDefault(cart, List.of());
            if (stored.size() > 1) {
                duplicates.add("cart " + cart.label + " has " + stored.size() + " orders: " + stored);
            }
            checkSubmissions(cart, orders, duplicates, lost, unconverged);
            stored.forEach(order -> checkOrder(cart, order, money, duplicates, lost, unconverged));
        }
        // A charge the provider did not take (declined, voided, waiting for authentication) never counts as a payment.
        List<String> notTaken = new ArrayList<>();
        query(CHARGES_NOT_TAKEN, orderIds, row -> notTaken.add(row.getString(1) + " " + row.getString(2) + " " + row.getString(3)));
        notTaken.stream().filter(charge -> !charge.endsWith(" null") && !charge.endsWith(" FAILURE"))
                .forEach(charge -> lost.add("a charge the provider did not take counts as a payment: " + charge));
        unconverged.addAll(resendEverything(carts));
        // A customer refused an order token never got to order: a failed journey, not a completed one.
        List<String> brokenOff = carts.stream().filter(cart -> cart.tokenRefused != null)
                .map(cart -> "cart " + cart.label + ": a token request was answered " + describe(cart.tokenRefused)).toList();
        return new Findings(carts.size(), orders.size(), money.charges.size(), money.refundCount, notTaken.size(), unconsumedEvents,
                brokenOff, duplicates, lost, unconverged);
    }

    /**
     * Every 201 has its order, for its token (or, where the cart's clients each took a token and shared one
     * Idempotency-Key, for any of the cart's tokens); one order id per token; every client of a token got the same answer.
     */
    private static void checkSubmissions(Cart cart, Map<String, StoredOrder> orders, List<String> duplicates, List<String> lost,
            List<String> unconverged) {
        StoredOrder cartOrder = cart.tokens.stream().map(token -> orders.get(Hashing.sha256Hex(token))).filter(Objects::nonNull).findFirst()
                .orElse(null);
        Map<String, Set<String>> idsByToken = new HashMap<>();
        Map<String, Set<Integer>> statusesByToken = new HashMap<>();
        for (Exchange submit : cart.exchanges(Kind.SUBMIT)) {
            String token = submit.request().orderToken();
            Answer answer = submit.answer();
            statusesByToken.computeIfAbsent(token, t -> new HashSet<>()).add(answer.status());
            if (answer.status() == 201) {
                idsByToken.computeIfAbsent(token, t -> new HashSet<>()).add(answer.orderId());
                StoredOrder stored = cart.tokenPerClient ? cartOrder : orders.get(Hashing.sha256Hex(token));
                if (stored == null || !stored.id.equals(answer.orderId())) {
                    lost.add("cart " + cart.label + ": a client was given order " + answer.orderId() + ", stored for its token: " + stored);
                }
            }
        }
        idsByToken.forEach((token, ids) -> {
            if (ids.size() > 1) {
                duplicates.add("cart " + cart.label + ": one token answered with orders " + ids);
            }
        });
        statusesByToken.forEach((token, statuses) -> {
            if (statuses.size() > 1) {
                unconverged.add("cart " + cart.label + ": the clients of one token were answered " + statuses);
            }
        });
        for (String token : cart.tokens) {
            StoredOrder stored = orders.get(Hashing.sha256Hex(token));
            if (stored != null && !idsByToken.containsKey(token)) {
                unconverged.add("cart " + cart.label + ": order " + stored.id + " exists for a token no client was given it for "
                        + statusesByToken.get(token));
            }
        }
    }

    /** The order is in the state its answers promise, and its money is right. */
    private static void checkOrder(Cart cart, StoredOrder order, Money money, List<String> duplicates, List<String> lost,
            List<String> unconverged) {
        String promised = cart.promisedStatus();
        if (!promised.equals(order.status)) {
            boolean answeredEffectMissing = "cancelled".equals(promised) || "paid".equals(promised) && "created".equals(order.status);
            (answeredEffectMissing ? lost : unconverged)
                    .add("cart " + cart.label + ": order " + order.id + " is " + order.status + ", its answers said " + promised);
        }
        List<String> charges = money.charges.getOrDefault(order.id, List.of());
        if (charges.size() > 1) {
            duplicates.add("order " + order.id + " charged " + charges.size() + " times");
        }
        long refunded = 0;
        for (String charge : charges) {
            int refunds = money.refundsByCharge.getOrDefault(charge, 0);
            if (refunds > 1) {
                duplicates.add("charge " + charge + " of order " + order.id + " refunded " + refunds + " times");
            }
            refunded += Math.min(refunds, 1);
        }
        long kept = charges.size() - refunded;
        long shouldKeep = PAID.contains(order.status) ? 1 : 0;
        if (kept != shouldKeep) {
            lost.add("order " + order.id + " is " + order.status + " and keeps " + kept + " of its " + charges.size() + " charges");
        }
    }

    /**
     * Sends every request once more, to another instance of the audit's client, several at a time: it must get the
     * answer its client got. Returns each request that got another.
     */
    List<String> resendEverything(List<Cart> carts) {
        ExecutorService senders = Executors.newFixedThreadPool(RESENDERS);
        try {
            List<CompletableFuture<String>> checks = carts.stream()
                    .flatMap(cart -> List.copyOf(cart.exchanges).stream().map(exchange -> CompletableFuture.supplyAsync(() -> resend(cart, exchange), senders)))
                    .toList();
            return checks.stream().map(CompletableFuture::join).filter(Objects::nonNull).toList();
        } finally {
            senders.shutdown();
        }
    }

    /** What is wrong with the request's answer, or null if sending it again gets the same. */
    private String resend(Cart cart, Exchange exchange) {
        Answer first = exchange.answer();
        if (first.gaveUp()) {
            return "cart " + cart.label + ": a " + exchange.kind() + " got no answer within the retry budget";
        }
        Answer again = client.send(exchange.request(), first.instance() + 1);
        // A client whose token was forgotten took another under the same key, which made the cart's order: the key answers with it now.
        boolean keyAnswersLater = cart.tokenPerClient && first.status() == 410 && again.status() == 201
                && again.orderId().equals(cart.orderId());
        return first.agreesWith(again) || keyAnswersLater ? null
                : "cart " + cart.label + ": " + exchange.kind() + " answered " + describe(first) + ", sent again " + describe(again);
    }

    private static String describe(Answer answer) {
        return answer.status() + (answer.code() == null ? "" : " " + answer.code()) + (answer.orderId() == null ? "" : " " + answer.orderId());
    }

    private record StoredOrder(String id, String status) {
    }

    /** Succeeded charges by order, and how many succeeded refunds each charge has. */
    private record Money(Map<String, List<String>> charges, Map<String, Integer> refundsByCharge, int refundCount) {
    }

    private Map<String, StoredOrder> ordersOf(Set<String> tokenHashes) {
        Map<String, StoredOrder> orders = new HashMap<>();
        query("SELECT token_hash, id::text, status FROM orders WHERE token_hash = ANY(?)", tokenHashes.toArray(String[]::new),
                row -> orders.put(row.getString(1), new StoredOrder(row.getString(2), row.getString(3))));
        return orders;
    }

    private Money money(String[] orderIds) {
        Map<String, List<String>> charges = new HashMap<>();
        Map<String, Integer> refunds = new HashMap<>();
        query("SELECT order_id::text, reference FROM sandbox_effects WHERE kind = 'charge' AND status = 'succeeded' AND order_id = ANY(?::uuid[])",
                orderIds, row -> charges.computeIfAbsent(row.getString(1), id -> new ArrayList<>()).add(row.getString(2)));
        int refundCount = (int) query(
                "SELECT charge_reference FROM sandbox_effects WHERE kind = 'refund' AND status = 'succeeded' AND order_id = ANY(?::uuid[])",
                orderIds, row -> refunds.merge(Objects.requireNonNullElse(row.getString(1), "?"), 1, Integer::sum));
        return new Money(charges, refunds, refundCount);
    }

    /** Order events of these orders that left the outbox for the stream and that the consumer never recorded. */
    private long unconsumedEvents(String[] orderIds) {
        return query("SELECT d.id FROM outbox_delivered d WHERE d.kind = 'order-event' AND d.order_id = ANY(?::uuid[])"
                + " AND NOT EXISTS (SELECT 1 FROM processed_messages p WHERE 'event:' || p.event_id = d.idempotency_key)", orderIds, row -> {
                });
    }

    private long pendingOutbox() {
        return count("SELECT count(*) FROM outbox WHERE status = 'PENDING'");
    }

    private long count(String sql) {
        try (Connection db = deployment.connect(); PreparedStatement statement = db.prepareStatement(sql); ResultSet row = statement.executeQuery()) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** Payments of these orders whose outcome is still unknown. */
    private long unknownPayments(String[] orderIds) {
        return query("SELECT id FROM payments WHERE status = 'PROCESSING' AND order_id = ANY(?::uuid[])", orderIds, row -> {
        });
    }

    /** Runs a query with one array parameter, handing each row on; returns how many rows there were. */
    private long query(String sql, String[] values, RowHandler handler) {
        try (Connection db = deployment.connect(); PreparedStatement statement = db.prepareStatement(sql)) {
            Array array = db.createArrayOf("text", values);
            statement.setArray(1, array);
            long rows = 0;
            try (ResultSet row = statement.executeQuery()) {
                while (row.next()) {
                    handler.accept(row);
                    rows++;
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    @FunctionalInterface
    private interface RowHandler {
        void accept(ResultSet row) throws SQLException;
    }
}
