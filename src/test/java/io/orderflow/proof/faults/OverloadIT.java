package io.orderflow.proof.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.orderflow.proof.faults.OpenLoop.Result;
import io.orderflow.proof.faults.OpenLoop.Shot;
import io.orderflow.shared.Hashing;
import io.vertx.core.http.HttpMethod;

/**
 * Overload: one packaged instance as deployed, on a private PostgreSQL and Redis. For POST /orders (over 100 products) and
 * for pay, in turn: its capacity is measured by a closed loop of 16 connections, then three times that rate is offered by
 * an open loop, then half of it. The service must shed the excess (503 with Retry-After, within 50 ms) while what it takes
 * stays fast: goodput at least 0.8 of capacity, the p99 of the accepted requests at most three times the p99 at capacity,
 * and every second from 5 s after the overload as fast as at capacity, with nothing refused. Then the audit: every
 * accepted order and payment is in the database once, no refused request left a trace, and each refused request sent again
 * is taken once. Long ({@code ops/proof/run.sh overload}) or short (.ci/run).
 */
@Tag("overload")
class OverloadIT {

    private static final int CONNECTIONS = 16;
    private static final double OFFERED = 3;
    private static final double AFTERWARDS = 0.5;
    private static final Duration BACK_TO_NORMAL_WITHIN = Duration.ofSeconds(5);
    private static final Duration WARM_UP_OVERLOAD = Duration.ofSeconds(3);
    private static final double REFUSED_WITHIN_MILLIS = 50;
    /** Refused requests sent again, one after another, to show nothing of them was done. */
    private static final int SENT_AGAIN = 200;
    private static final String ALICE = "Basic " + Base64.getEncoder().encodeToString("alice:alice".getBytes());
    private static final String PAY_BODY = "{\"paymentMethod\":\"pm_card_visa\"}";
    private static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");
    private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");
    private static final String PRODUCTS = "INSERT INTO products (sku, name, price, currency, active, on_hand)"
            + " SELECT 'LOAD-' || lpad(n::text, 3, '0'), 'Load product ' || n, 12.50, 'CNY', true, 100000000 FROM generate_series(1, 100) AS n";

    private final ProofSettings settings = ProofSettings.fromSystemProperties("overload");
    private final boolean longRun = "long".equals(settings.mode());
    private final Duration warmUp = Duration.ofSeconds(longRun ? 40 : 15);
    private final Duration atCapacity = Duration.ofSeconds(longRun ? 20 : 8);
    private final Duration overloaded = Duration.ofSeconds(longRun ? 30 : 10);
    private final Duration after = Duration.ofSeconds(longRun ? 15 : 10);
    private final List<String> tokens = new ArrayList<>();
    /** Every order placed, in turn: pays use them in this order. */
    private final List<String> orders = new ArrayList<>();
    private final List<Result> refusedOrders = new ArrayList<>();
    private final List<Result> refusedPays = new ArrayList<>();
    private int tokensUsed;
    private int ordersPaid;
    private OpenLoop load;

    /** One path's figures: capacity, and what the open loop at three times it and afterwards got. */
    record Phase(String path, double capacity, double p99AtCapacity, double offered, double goodput, double acceptedP99, long refused,
            double refusalP99, double refusalMax, long others, double backToNormalSeconds, double lateP99) {

        String line() {
            return String.format("%-12s capacity %4.0f/s (p99 %5.1f ms)  offered %4.0f/s  goodput %4.0f/s = %.2fx  accepted p99 %5.1f ms = %.2fx"
                    + "  refused %5d (p99 %5.1f ms, max %5.1f ms)  other answers %d  back to normal in %.0f s  (load sent late by p99 %.1f ms)",
                    path, capacity, p99AtCapacity, offered, goodput, goodput / capacity, acceptedP99, acceptedP99 / p99AtCapacity, refused,
                    refusalP99, refusalMax, others, backToNormalSeconds, lateP99);
        }
    }

    @Test
    void atThreeTimesCapacityTheExcessIsShedFastTheRestServedAndNothingHalfDone() throws Exception {
        Files.deleteIfExists(settings.results());
        try (Deployment deployment = Deployment.withoutInstances(settings, SingleServers.start())) {
            // The provider answers at once, so that pay is bound by the service's own work.
            ServiceInstance instance = deployment.putInServiceAsDeployed("overload", settings.jar(), Map.of("ORDERS_SANDBOX_LATENCY", "0MS"));
            try (Connection db = deployment.connect(); Statement insert = db.createStatement()) {
                insert.execute(PRODUCTS);
            }
            try (OpenLoop load = new OpenLoop(instance.base())) {
                this.load = load;
                warmUp();
                Phase ordering = overload(new Ordering());
                auditOrders(deployment);
                Phase paying = overload(new Paying());
                auditPays(deployment);
                Figures.publish(ordering.line(), settings.results());
                Figures.publish(paying.line(), settings.results());
                assertFast(ordering);
                assertFast(paying);
            }
        }
    }

    /** What the load sends: its requests in turn, each used once. */
    private interface Kind {
        String path();

        /** The request of this number. */
        Shot shot(int number);

        /** The number of the next request not yet sent. */
        int next();

        /** Makes sure so many more requests can be sent. */
        void supply(int atLeast);

        /** How many more requests can be sent. */
        int available();

        /** Takes note of what these requests did. */
        void sent(List<Result> results);
    }

    /** POST /orders, each with a token of its own, over 100 products. */
    private final class Ordering implements Kind {
        @Override
        public String path() {
            return "POST /orders";
        }

        @Override
        public Shot shot(int number) {
            String body = "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"LOAD-" + String.format("%03d", number % 100 + 1) + "\",\"quantity\":1}]}";
            return new Shot(HttpMethod.POST, "/orders", Map.of("Authorization", ALICE, "Content-Type", "application/json", "Accept",
                    "application/json", "Order-Token", tokens.get(number), "Idempotency-Key", "overload-order-" + number), body);
        }

        @Override
        public int next() {
            return tokensUsed;
        }

        @Override
        public int available() {
            return tokens.size() - tokensUsed;
        }

        @Override
        public void supply(int atLeast) {
            int wanted = atLeast - (tokens.size() - tokensUsed);
            if (wanted <= 0) {
                return;
            }
            List<Result> issued = load.closed(CONNECTIONS, Duration.ofMinutes(5), 0, wanted,
                    number -> new Shot(HttpMethod.POST, "/orders/token", Map.of("Authorization", ALICE, "Accept", "application/json"), null));
            assertThat(issued).as("order tokens issued").hasSize(wanted).allMatch(result -> result.status() == 201);
            issued.forEach(result -> tokens.add(found(TOKEN, result)));
        }

        @Override
        public void sent(List<Result> results) {
            tokensUsed += results.size();
            results.stream().filter(Result::accepted).forEach(result -> orders.add(found(ID, result)));
            results.stream().filter(result -> result.status() == 503).forEach(refusedOrders::add);
        }
    }

    /** POST /orders/{id}/pay, each for an order of its own placed before. */
    private final class Paying implements Kind {
        private final Ordering ordering = new Ordering();

        @Override
        public String path() {
            return "pay";
        }

        @Override
        public Shot shot(int number) {
            return new Shot(HttpMethod.POST, "/orders/" + orders.get(number) + "/pay", Map.of("Authorization", ALICE, "Content-Type",
                    "application/json", "Accept", "application/json", "Idempotency-Key", "overload-pay-" + number), PAY_BODY);
        }

        @Override
        public int next() {
            return ordersPaid;
        }

        @Override
        public int available() {
            return orders.size() - ordersPaid;
        }

        @Override
        public void supply(int atLeast) {
            // More orders, placed at capacity, when the unpaid ones run short.
            while (orders.size() - ordersPaid < atLeast) {
                int wanted = atLeast - (orders.size() - ordersPaid);
                ordering.supply(wanted);
                List<Result> placed = load.closed(CONNECTIONS, Duration.ofMinutes(5), ordering.next(), wanted, ordering::shot);
                assertThat(placed).as("orders placed to be paid").allMatch(Result::accepted);
                ordering.sent(placed);
            }
        }

        @Override
        public void sent(List<Result> results) {
            ordersPaid += results.size();
            results.stream().filter(result -> result.status() == 503).forEach(refusedPays::add);
        }
    }

    /**
     * Both paths at capacity, then a few seconds of each at three times the rate reached: the refusals' code is compiled and the
     * load's connections are open before anything is measured, as in a service that has been running.
     */
    private void warmUp() {
        Ordering ordering = new Ordering();
        ordering.supply((int) (warmUp.toSeconds() * 3000));
        List<Result> placed = load.closed(CONNECTIONS, warmUp, ordering.next(), ordering.available(), ordering::shot);
        ordering.sent(placed);
        Paying paying = new Paying();
        List<Result> paid = load.closed(CONNECTIONS, warmUp.dividedBy(3), paying.next(), paying.available(), paying::shot);
        paying.sent(paid);
        // A cold instance may shed a few while its first requests are slow; anything else is wrong.
        assertThat(Stream.concat(placed.stream(), paid.stream())).as("answers while warming up")
                .allMatch(result -> result.accepted() || result.status() == 503);
        for (Kind kind : List.of(ordering, paying)) {
            List<Result> closed = kind == ordering ? placed : paid;
            double rate = OFFERED * closed.stream().filter(Result::accepted).count() / (kind == ordering ? warmUp : warmUp.dividedBy(3)).toSeconds();
            kind.supply((int) (rate * WARM_UP_OVERLOAD.toSeconds()) + 100);
            kind.sent(load.open(rate, WARM_UP_OVERLOAD, kind.next(), kind::shot));
        }
    }

    private Phase overload(Kind kind) {
        String path = kind.path();
        kind.supply((int) (atCapacity.toSeconds() * 3000));
        List<Result> closed = load.closed(CONNECTIONS, atCapacity, kind.next(), kind.available(), kind::shot);
        kind.sent(closed);
        List<Result> served = closed.stream().filter(Result::accepted).toList();
        assertThat(closed).as(path + " at capacity: every answer a success or a 503").isNotEmpty()
                .allMatch(result -> result.accepted() || result.status() == 503);
        assertThat((double) served.size()).as(path + " at capacity: successes (the rest shed at the limit's edge)")
                .isGreaterThanOrEqualTo(0.99 * closed.size());
        double capacity = served.size() / (double) atCapacity.toSeconds();
        double p99AtCapacity = OpenLoop.percentile(served.stream().map(Result::millis).toList(), 99);

        double offered = OFFERED * capacity;
        kind.supply((int) (offered * overloaded.toSeconds() + AFTERWARDS * capacity * after.toSeconds()) + 100);
        int start = kind.next();
        List<Result> excess = load.open(offered, overloaded, start, kind::shot);
        List<Result> calm = load.open(AFTERWARDS * capacity, after, start + excess.size(), kind::shot);
        kind.sent(excess);
        kind.sent(calm);

        List<Result> accepted = excess.stream().filter(Result::accepted).toList();
        List<Result> refused = excess.stream().filter(result -> result.status() == 503).toList();
        List<Double> refusals = refused.stream().map(Result::millis).toList();
        List<Result> others = Stream.concat(excess.stream(), calm.stream())
                .filter(result -> !result.accepted() && result.status() != 503).toList();
        assertThat(others.stream().limit(5).map(result -> result.status() + " " + result.body()))
                .as(path + ": answers other than success or 503 (%d in all)", others.size()).isEmpty();
        assertThat(Stream.concat(excess.stream(), calm.stream()).filter(result -> result.status() == 503))
                .as(path + ": every refusal a 503 with Retry-After and a problem detail")
                .allMatch(result -> "1".equals(result.retryAfter()) && result.body().contains("\"code\":\"service-unavailable\""));
        assertThat(refused).as(path + ": at three times capacity, requests refused").isNotEmpty();
        return new Phase(path, capacity, p99AtCapacity, offered, accepted.size() / (double) overloaded.toSeconds(),
                OpenLoop.percentile(accepted.stream().map(Result::millis).toList(), 99), refused.size(), OpenLoop.percentile(refusals, 99),
                refusals.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN), others.size(), backToNormal(calm, p99AtCapacity),
                OpenLoop.percentile(excess.stream().map(Result::lateMillis).toList(), 99));
    }

    /**
     * The first second after the overload from which on nothing is refused and the p99 of the answers is no worse than at
     * capacity: when the service is back to normal.
     */
    private static double backToNormal(List<Result> calm, double p99AtCapacity) {
        long start = calm.get(0).dueNanos();
        int seconds = (int) ((calm.get(calm.size() - 1).dueNanos() - start) / 1_000_000_000L) + 1;
        for (int second = 0; second < seconds; second++) {
            long from = start + second * 1_000_000_000L;
            List<Result> rest = calm.stream().filter(result -> result.dueNanos() >= from).toList();
            if (rest.stream().allMatch(Result::accepted) && OpenLoop.percentile(rest.stream().map(Result::millis).toList(), 99) <= p99AtCapacity) {
                return second;
            }
        }
        return seconds;
    }

    /**
     * The targets. The long run holds the service to all of them; the short one (.ci/run, ten seconds of overload on a machine
     * that has just built the project) to the shedding itself: goodput at least half of capacity and back to normal within
     * 5 s, the latencies printed for the record.
     */
    private void assertFast(Phase phase) {
        assertThat(phase.goodput()).as(phase.path() + ": goodput at three times capacity, against capacity")
                .isGreaterThanOrEqualTo((longRun ? 0.8 : 0.5) * phase.capacity());
        assertThat(phase.backToNormalSeconds()).as(phase.path() + ": seconds after the overload until latency is back to normal")
                .isLessThanOrEqualTo(BACK_TO_NORMAL_WITHIN.toSeconds());
        if (longRun) {
            assertThat(phase.acceptedP99()).as(phase.path() + ": p99 of accepted requests, against the p99 at capacity")
                    .isLessThanOrEqualTo(3 * phase.p99AtCapacity());
            assertThat(phase.refusalP99()).as(phase.path() + ": p99 of refusals, ms").isLessThan(REFUSED_WITHIN_MILLIS);
        }
    }

    /**
     * Every order the answers named is in the database once, no refused request's token placed an order, and a sample of the
     * refused requests sent again (same token, same Idempotency-Key) is taken, once each.
     */
    private void auditOrders(Deployment deployment) {
        assertThat(new HashSet<>(orders)).as("orders named by the answers, each once").hasSize(orders.size());
        assertThat(deployment.number("SELECT count(*) FROM orders WHERE id::text = ANY(?)", orders)).as("answered orders in the database")
                .isEqualTo(orders.size());
        List<String> refusedTokens = refusedOrders.stream().map(result -> Hashing.sha256Hex(tokens.get(result.number()))).toList();
        assertThat(deployment.number("SELECT count(*) FROM orders WHERE token_hash = ANY(?)", refusedTokens))
                .as("orders placed by the %d refused requests", refusedOrders.size()).isZero();
        Ordering ordering = new Ordering();
        List<Result> sample = refusedOrders.subList(0, Math.min(SENT_AGAIN, refusedOrders.size()));
        for (Result refused : sample) {
            List<Result> again = load.closed(1, Duration.ofMinutes(1), refused.number(), 1, ordering::shot);
            assertThat(again).as("a refused order sent again").singleElement().matches(Result::accepted, "is taken");
            orders.add(found(ID, again.get(0)));
        }
        List<String> sampleTokens = sample.stream().map(result -> Hashing.sha256Hex(tokens.get(result.number()))).toList();
        assertThat(deployment.number("SELECT count(*) FROM orders WHERE token_hash = ANY(?)", sampleTokens)).as("orders of the requests sent again")
                .isEqualTo(sample.size());
    }

    /** Every pay that was answered is charged once and paid once; no refused pay left a payment or a charge. */
    private void auditPays(Deployment deployment) {
        List<String> unpaid = refusedPays.stream().map(result -> orders.get(result.number())).toList();
        assertThat(deployment.number("SELECT count(*) FROM payments WHERE order_id::text = ANY(?)", unpaid))
                .as("payments of the %d refused pays", unpaid.size()).isZero();
        assertThat(deployment.number("SELECT count(*) FROM sandbox_effects WHERE kind = 'charge' AND order_id::text = ANY(?)", unpaid))
                .as("charges of the refused pays").isZero();
        List<String> paid = new ArrayList<>(orders.subList(0, ordersPaid));
        paid.removeAll(new HashSet<>(unpaid));
        assertThat(deployment.number("SELECT count(*) FROM payments WHERE status = 'SUCCESS' AND order_id::text = ANY(?)", paid))
                .as("paid orders with a successful payment").isEqualTo(paid.size());
        assertThat(deployment.number("SELECT count(*) FROM sandbox_effects WHERE kind = 'charge' AND status = 'succeeded' AND order_id::text = ANY(?)",
                paid)).as("charges of the paid orders, one each").isEqualTo(paid.size());
    }

    private static String found(Pattern pattern, Result result) {
        Matcher matcher = pattern.matcher(result.body());
        if (!matcher.find()) {
            throw new IllegalStateException("No " + pattern + " in an answer " + result.status() + ": " + result.body());
        }
        return matcher.group(1);
    }
}
