package io.orderflow.proof.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

import io.orderflow.proof.faults.Cart.Plan;

/**
 * Proof under faults: three packaged instances on a private PostgreSQL and Redis, customers shopping
 * on all of them at once, retrying as real clients do, while Redis restarts empty, PostgreSQL
 * restarts, instances die by kill -9 and Redis stalls. Each scenario prints one line of figures
 * and asserts that nothing was lost, nothing doubled and every retried request converged on one
 * answer. Then payment deadlines fall due: instances share the firing, and what one killed mid-firing
 * left is fired once after a restart. Then the payment provider refuses refunds past the attempts budget:
 * each is made once when it recovers. Last, Redis restarts empty again while clients send every copy of a
 * cart with a fresh order token and the cart's one Idempotency-Key: the key alone keeps it to one order.
 * Short by default; {@code -Dproof.mode=long} (ops/proof/run.sh) repeats each fault under
 * more traffic.
 */
@Tag("proof")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// Beside the Quarkus tests, which run one class at a time; the lock keeps its own scenarios one after another, in order.
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("proof-deployment")
class FaultsIT {

    private static final Plan[] PAYING_PLANS = { Plan.PAY, Plan.PAY_RACING_CANCEL, Plan.PAY_THEN_CANCEL };
    /** Due orders fire within a second or so; this is far past it. */
    private static final Duration FIRING_LIMIT = Duration.ofSeconds(30);
    private static final Duration COUNTING_LIMIT = Duration.ofSeconds(5);
    private static final String FIRED_EXPIRIES = "orders_deadlines_fired_total{event=\"expire\"}";
    private static final String OVERDUE_REFUNDS = "orders_refunds_overdue";
    /** The refund outage's attempts budget (orders.outbox.max-attempts), which its refunds outlast. */
    private static final int REFUND_ATTEMPTS_BUDGET = 3;
    /** Under load some token, key, payment or outbox message is claimed nearly all the time. */
    private static final Duration WORK_LIMIT = Duration.ofSeconds(10);
    /** Less than every lease of the deployment (tokens 5 s, keys 10 s, payments and the outbox 15 s): one the stopped instance kept would outlast it. */
    private static final Duration HANDED_BACK_LIMIT = Duration.ofSeconds(3);
    /** The token and key records in Redis that are claimed (or running) with their lease not run out: {key, claim id} each. */
    private static final String CLAIMED_IN_REDIS = """
            local clock = redis.call('TIME')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local claims, cursor = {}, '0'
            repeat
              local page = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
              cursor = page[1]
              for _, key in ipairs(page[2]) do
                if redis.call('TYPE', key).ok == 'hash' then
                  local record = redis.call('HMGET', key, 'state', 'leaseUntil', 'claimId')
                  if (record[1] == 'claimed' or record[1] == 'running') and (tonumber(record[2]) or 0) > now and record[3] then
                    table.insert(claims, {key, record[3]})
                  end
                end
              end
            until cursor == '0'
            return claims""";
    private static final String ANSWERED_CLAIMS = "SELECT claim_id::text FROM idempotency_keys WHERE claim_id::text = ANY(?)";
    private static final String HELD_LEASES = """
            SELECT 'outbox ' || kind || ' ' || idempotency_key || ' lease ' || lease_id FROM outbox
            WHERE lease_id IS NOT NULL AND status = 'PENDING' AND next_attempt_at > now()
            UNION ALL
            SELECT 'payment ' || idempotency_key || ' claim ' || claim_id FROM payments WHERE status = 'PROCESSING' AND claimed_until > now()""";

    private static ProofSettings settings;
    private static SingleServers servers;
    private static Deployment deployment;
    private static Scenarios scenarios;

    @BeforeAll
    static void deploy() throws IOException {
        settings = ProofSettings.fromSystemProperties("faults");
        Files.deleteIfExists(settings.results());
        servers = SingleServers.start();
        deployment = Deployment.start(settings, servers);
        scenarios = new Scenarios(deployment, settings);
        System.out.println("[proof] " + settings.mode() + " run: " + Deployment.INSTANCES + " instances on " + deployment.bases());
    }

    @AfterAll
    static void tearDown() {
        if (deployment != null) {
            deployment.close();
        }
    }

    @Test
    @Order(1)
    void aThousandSubmissionsOfAHundredTokensMakeAHundredOrders() {
        int tokens = 100;
        int copies = 10;
        Traffic traffic = new Traffic();
        ProofClient client = scenarios.client(traffic);
        List<Cart> carts = scenarios.shop(client, 4, number -> number < tokens ? new Cart("tokens", number, Plan.ORDER_ONLY, copies, false, number % 2 == 1) : null);
        Figures figures = scenarios.audit("hammered-tokens", client, traffic, carts, tokens, 0, 0, 0);

        assertThat(carts.stream().mapToLong(cart -> cart.exchanges(Cart.Kind.SUBMIT).size()).sum()).isEqualTo(tokens * copies);
        assertThat(figures.findings().orders()).isEqualTo(tokens);
    }

    @Test
    @Order(2)
    void payRacingCancelOverInstancesChargesOnceAndRefundsEveryCancelledPayment() {
        int carts = 90;
        Traffic traffic = new Traffic();
        ProofClient client = scenarios.client(traffic);
        List<Cart> done = scenarios.shop(client, settings.shoppers(),
                number -> number < carts ? new Cart("races", number, PAYING_PLANS[number % PAYING_PLANS.length], 2) : null);
        Figures figures = scenarios.audit("pay-cancel-races", client, traffic, done, carts, 0, 0, 0);

        assertThat(figures.findings().orders()).isEqualTo(carts);
        assertThat(figures.findings().refunds()).isPositive();
    }

    @Test
    @Order(3)
    void redisRestartedEmptyMidLoad() {
        scenarios.underFaults("redis-restart", FaultsIT::restartRedisEmpty);
    }

    @Test
    @Order(4)
    void postgresRestartedMidLoad() {
        scenarios.underFaults("postgres-restart", (traffic, injectedAt) -> {
            servers.postgres().stopFast();
            Scenarios.holdUntilFelt(traffic, injectedAt, servers.postgres()::launch);
            return System.nanoTime();
        });
    }

    @Test
    @Order(5)
    void instancesKilledMidLoadOneOfThemTheRelay() {
        int other = Deployment.RELAY + 1;
        scenarios.underFaults("instance-kill", (traffic, injectedAt) -> killAndRestart(other, traffic, injectedAt));
        scenarios.underFaults("relay-instance-kill", (traffic, injectedAt) -> killAndRestart(Deployment.RELAY, traffic, injectedAt));
    }

    @Test
    @Order(6)
    void redisStalledPastTheLeasesMidLoad() {
        scenarios.underFaults("redis-stall", (traffic, injectedAt) -> {
            servers.redis().pauseAllClients(settings.redisPauseMillis());
            servers.redis().awaitAnswering();
            long resumed = System.nanoTime();
            Scenarios.requireHeldUp(traffic, injectedAt, resumed);
            return resumed;
        });
    }

    @Test
    @Order(7)
    void deadlinesFireOnceOverInstances() {
        String scenario = "deadlines-over-instances";
        int orders = 200;
        Traffic traffic = new Traffic();
        ProofClient client = scenarios.client(traffic);
        Expiries expiries = Expiries.ofNewProduct(deployment, client, scenario, orders);
        List<String> ids = expiries.placeThroughApi(client, orders);
        assertThat(expiries.stock()).as(scenario + ": stock once ordered").isEqualTo(orders + "/" + orders);
        double[] countedBefore = firedExpiries();

        // Only these orders fall due: every other order keeps the deadline its instance gave it.
        assertThat(expiries.bringDue(ids, Duration.ofSeconds(2))).isEqualTo(orders);
        Processes.require(FIRING_LIMIT, scenario + ": " + orders + " orders expired", () -> expiries.cancelled(ids) == orders);
        // An instance counts an expiry once its transaction committed, just after the orders show it.
        Processes.await(COUNTING_LIMIT, () -> firedSince(countedBefore).sum() >= orders);
        long[] fired = firedSince(countedBefore).toArray();
        String firedBy = IntStream.range(0, Deployment.INSTANCES).mapToObj(i -> deployment.instances.get(i).name() + " " + fired[i])
                .collect(Collectors.joining(", "));

        DeadlineFigures figures = publishAndCheckExpiredOnce(scenario, expiries, ids, firedBy, traffic);
        assertThat(Duration.ofMillis(figures.latestMillis())).as(scenario + ": the latest expiry after its deadline").isLessThan(Duration.ofSeconds(3));
        assertThat(LongStream.of(fired).sum()).as(scenario + ": expiries the instances counted, " + firedBy).isEqualTo(orders);
        assertThat(figures.clientErrors()).as(scenario + ": requests without an answer or with a 5xx").isZero();
    }

    @Test
    @Order(8)
    void deadlinesPendingWhenTheOnlyInstanceIsKilledFireOnceAfterARestart() {
        String scenario = "deadlines-after-kill";
        int orders = 2000;
        Traffic traffic = new Traffic();
        ProofClient client = scenarios.client(traffic);
        Expiries expiries = Expiries.ofNewProduct(deployment, client, scenario, orders);
        ServiceInstance last = deployment.instances.get(Deployment.RELAY);
        try {
            IntStream.range(0, Deployment.INSTANCES).filter(i -> i != Deployment.RELAY).forEach(deployment::kill);
            List<String> ids = expiries.insertDue(orders, Duration.ofSeconds(1));
            Processes.require(FIRING_LIMIT, scenario + ": the first expiry", () -> expiries.cancelled(ids) > 0);
            // Mid-firing: the batches after the first are left to whoever looks next.
            deployment.kill(Deployment.RELAY);
            long beforeKill = expiries.cancelled(ids);
            System.out.println("[proof] " + scenario + ": " + beforeKill + " of " + orders + " expired when " + last.name()
                    + ", the only instance running, was killed");

            deployment.restart(Deployment.RELAY);
            Processes.require(Scenarios.RECOVERY_LIMIT, scenario + ": " + orders + " orders expired after the restart", () -> expiries.cancelled(ids) == orders);
            String firedBy = last.name() + " " + beforeKill + " before its kill -9, " + (orders - beforeKill) + " once restarted";

            publishAndCheckExpiredOnce(scenario, expiries, ids, firedBy, traffic);
            assertThat(beforeKill).as(scenario + ": expired before the kill, of " + orders).isBetween(1L, orders - 1L);
        } finally {
            // The deployment ends as it began: every instance running.
            deployment.restartKilled();
        }
    }

    /**
     * The payment provider refuses every refund for longer than the outbox's attempts budget while
     * customers pay and cancel; once it recovers, every cancelled payment is refunded exactly once and
     * nothing was given up. For this the instances restart with the provider behind a proxy and an
     * attempts budget of seconds; they restart as deployed afterwards.
     */
    @Test
    @Order(9)
    void refundsRefusedPastTheAttemptsBudgetAreMadeOnceWhenTheProviderRecovers() {
        String scenario = "refund-outage";
        int orders = 30;
        ServiceInstance relay = deployment.instances.get(Deployment.RELAY);
        try (RefundOutageProxy provider = RefundOutageProxy.start(relay.base())) {
            try {
                deployment.restartAllWith(Map.of(
                        "QUARKUS_REST_CLIENT_PAYMENT_PROVIDER_URL", provider.paymentProvider().toString(),
                        "ORDERS_OUTBOX_MAX_ATTEMPTS", Integer.toString(REFUND_ATTEMPTS_BUDGET),
                        "ORDERS_OUTBOX_BASE_DELAY", "100MS",
                        "ORDERS_OUTBOX_MAX_DELAY", "1S",
                        "ORDERS_PAYMENTS_REFUND_OVERDUE_AFTER", "2S"));
                Traffic traffic = new Traffic();
                ProofClient client = scenarios.client(traffic);
                provider.outage(true);
                List<Cart> carts = scenarios.shop(client, 4, number -> number < orders ? new Cart(scenario, number, Plan.PAY_THEN_CANCEL, 1) : null);
                assertThat(carts).as(scenario + ": carts paid, then cancelled at once during the outage")
                        .allSatisfy(cart -> assertThat(cart.promisedStatus()).isEqualTo("cancelled"));
                List<String> ids = carts.stream().map(Cart::orderId).toList();
                Refunds refunds = new Refunds(deployment, ids);

                // Once, each of these would have been dead-lettered: the outage is held until every refund is past that.
                Processes.require(Scenarios.RECOVERY_LIMIT, scenario + ": every refund in line after more than " + REFUND_ATTEMPTS_BUDGET + " attempts", () -> {
                    assertThat(refunds.givenUp()).as(scenario + ": refunds given up").isZero();
                    return refunds.inLinePast(REFUND_ATTEMPTS_BUDGET) == orders;
                });
                Processes.require(COUNTING_LIMIT, scenario + ": overdue refunds counted", () -> relay.metric(OVERDUE_REFUNDS) > 0);
                double mostOverdue = relay.metric(OVERDUE_REFUNDS);
                provider.outage(false);
                long lifted = System.nanoTime();
                long refused = provider.refused();

                Processes.require(Scenarios.RECOVERY_LIMIT, scenario + ": every payment refunded after the outage", () -> refunds.refunded() == orders);
                long madeWithin = Duration.ofNanos(System.nanoTime() - lifted).toMillis();
                Processes.require(COUNTING_LIMIT, scenario + ": no refund overdue any more", () -> relay.metric(OVERDUE_REFUNDS) == 0);
                Audit.Findings findings = new Audit(deployment, client).check(carts);
                List<Refunds.Ledger> ledgers = ids.stream().map(id -> refunds.ledger(relay.base(), id)).toList();
                long made = ledgers.stream().mapToLong(Refunds.Ledger::refunds).sum();
                long duplicates = ledgers.stream().filter(ledger -> ledger.refunds() > 1).count();
                new RefundOutageFigures(scenario, orders, refused, made, duplicates, mostOverdue, madeWithin).publish(settings.results());

                assertThat(refused).as(scenario + ": refund calls refused").isGreaterThan((long) orders * REFUND_ATTEMPTS_BUDGET);
                assertThat(ledgers).as(scenario + ": each order's ledger").allSatisfy(ledger -> assertThat(ledger).isEqualTo(new Refunds.Ledger(1, 1)));
                assertThat(findings.duplicates()).as(scenario + ": duplicates").isEmpty();
                assertThat(findings.lost()).as(scenario + ": lost").isEmpty();
                assertThat(findings.unconverged()).as(scenario + ": unconverged").isEmpty();
                assertThat(traffic.serverErrors()).as(scenario + ": 500 answers").isZero();
            } finally {
                // The deployment ends as it began.
                deployment.restartAllWith(Map.of());
            }
        }
    }

    /**
     * Clients that take a fresh order token for every copy of a cart they send, all with the cart's one
     * Idempotency-Key, while Redis restarts empty: PostgreSQL keeps the key with the order, so the key
     * still answers with the first order, and no cart gets two.
     */
    @Test
    @Order(10)
    void redisRestartedEmptyWhileClientsRetryOneKeyWithFreshTokens() {
        String scenario = "redis-restart-one-key";
        scenarios.underFaults(scenario, number -> new Cart(scenario, number, Scenarios.MIXED_PLANS[number % Scenarios.MIXED_PLANS.length], Scenarios.COPIES, true),
                FaultsIT::restartRedisEmpty);
    }

    /**
     * SIGTERM to the instance that runs the outbox relay, mid-load: its readiness answers DOWN at once while
     * it still serves, it exits within the shutdown delay and timeout, and it leaves no lease for others to
     * wait out: every lease held when it exited (outbox messages and payments, order tokens and Idempotency-Keys
     * not yet answered) is gone within 3 s (the leases are 5 to 15 s), and its consumer has left the order-event group. The audit then finds
     * nothing lost or doubled; the clients retried on the other instances.
     */
    @Test
    @Order(11)
    void theRelayInstanceStoppedBySigtermMidLoadHandsBackWhatItHeld() {
        String scenario = "instance-sigterm";
        scenarios.underFaults(scenario, (traffic, injectedAt) -> {
            ServiceInstance relay = deployment.instances.get(Deployment.RELAY);
            int consumersBefore = eventConsumers();
            // The signal comes amid work: while leases are held.
            AtomicReference<List<String>> atSignal = new AtomicReference<>();
            Processes.require(WORK_LIMIT, scenario + ": leases held, work for the SIGTERM to interrupt", () -> {
                atSignal.set(heldLeases());
                return !atSignal.get().isEmpty();
            });
            long signalled = System.nanoTime();
            relay.signalStop();
            Processes.require(Deployment.SIGNAL_LIMIT, scenario + ": readiness DOWN after SIGTERM", () -> !relay.ready());
            long notReady = Duration.ofNanos(System.nanoTime() - signalled).toMillis();
            assertThat(relay.live()).as(scenario + ": still serving while load balancers take it out").isTrue();
            assertThat(relay.exitedWithin(Deployment.STOP_LIMIT)).as(scenario + ": exited within the shutdown delay and timeout").isTrue();
            long exited = System.nanoTime();

            List<String> leases = heldLeases();
            Processes.await(HANDED_BACK_LIMIT, () -> heldLeases().stream().noneMatch(leases::contains));
            long leasesGone = Duration.ofNanos(System.nanoTime() - exited).toMillis();
            assertThat(heldLeases()).as(scenario + ": leases held at the exit and still held " + leasesGone + " ms later").filteredOn(leases::contains).isEmpty();
            int consumersLeft = consumersBefore - eventConsumers();
            new StopFigures(scenario, atSignal.get().size(), notReady, Duration.ofNanos(exited - signalled).toMillis(), leases.size(), leasesGone,
                    consumersLeft)
                    .publish(settings.results());
            assertThat(consumersLeft).as(scenario + ": consumers that left the order-event group").isEqualTo(1);

            long restarting = System.nanoTime();
            deployment.restart(Deployment.RELAY);
            return restarting;
        });
    }

    /**
     * The leases held now, each by its lease or claim id: outbox messages and payments in PostgreSQL, and in
     * Redis the order tokens and Idempotency-Keys whose record is claimed with its lease still running. A key
     * whose answer PostgreSQL keeps (the claim that kept it) holds nobody up: by design Redis is not told of
     * an answer kept with its effect, and a retry that finds the key in use gets that answer from PostgreSQL.
     */
    private static List<String> heldLeases() {
        List<List<?>> records = ((List<?>) servers.redis().command("EVAL", CLAIMED_IN_REDIS, "0", Deployment.KEY_PREFIX + "*")).stream()
                .<List<?>>map(record -> (List<?>) record).toList();
        List<String> answered = deployment.texts(ANSWERED_CLAIMS, records.stream().map(record -> String.valueOf(record.get(1))).toList());
        List<String> held = new ArrayList<>(deployment.texts(HELD_LEASES));
        records.stream().filter(record -> !answered.contains(String.valueOf(record.get(1))))
                .forEach(record -> held.add("redis " + record.get(0) + " claim " + record.get(1)));
        return held;
    }

    /** The consumers in the order-event stream's group, the instances' and those left behind by instances killed earlier. */
    private static int eventConsumers() {
        return ((List<?>) servers.redis().command("XINFO", "CONSUMERS", Deployment.KEY_PREFIX + "{events}:orders", "notifications")).size();
    }

    private static long restartRedisEmpty(Traffic traffic, long injectedAt) {
        servers.redis().shutdownNoSave();
        Scenarios.holdUntilFelt(traffic, injectedAt, servers.redis()::launch);
        return System.nanoTime();
    }

    /**
     * Publishes a deadline scenario's figures and checks what every one must hold: each order cancelled by
     * one expiry of the system's and by nothing else, the stock it held released, one 'cancelled' event queued.
     */
    private static DeadlineFigures publishAndCheckExpiredOnce(String scenario, Expiries expiries, List<String> ids, String firedBy,
            Traffic traffic) {
        int orders = ids.size();
        DeadlineFigures figures = new DeadlineFigures(scenario, orders, firedBy, expiries.expiredOnce(ids), expiries.latestMillis(ids),
                expiries.stock(), expiries.cancelledEvents(ids), traffic.errors());
        figures.publish(settings.results());
        assertThat(figures.expiredOnce()).as(scenario + ": cancelled by one expiry of the system's, version 1").isEqualTo(orders);
        assertThat(figures.stock()).as(scenario + ": stock on hand/reserved").isEqualTo(orders + "/0");
        assertThat(figures.cancelledEvents()).as(scenario + ": 'cancelled' order events").isEqualTo(orders);
        return figures;
    }

    /** What each instance has counted in {@code orders_deadlines_fired_total} for expiries since it started. */
    private static double[] firedExpiries() {
        return deployment.instances.stream().mapToDouble(instance -> instance.metric(FIRED_EXPIRIES)).toArray();
    }

    /** The expiries each instance counted since the counts were taken. */
    private static LongStream firedSince(double[] before) {
        double[] now = firedExpiries();
        return IntStream.range(0, now.length).mapToLong(i -> Math.round(now[i] - before[i]));
    }

    private static long killAndRestart(int instance, Traffic traffic, long injectedAt) {
        deployment.kill(instance);
        return Scenarios.holdUntilFelt(traffic, injectedAt, () -> deployment.restart(instance));
    }
}
