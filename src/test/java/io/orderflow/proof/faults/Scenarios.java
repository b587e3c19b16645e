package io.orderflow.proof.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;

import io.orderflow.proof.faults.Cart.Plan;

/**
 * Customers shopping on every instance of a deployment while a fault strikes, and the audit after:
 * what each scenario of the proofs under faults and over failovers runs.
 */
final class Scenarios {

    static final Plan[] MIXED_PLANS = { Plan.ORDER_ONLY, Plan.PAY, Plan.PAY_RACING_CANCEL, Plan.PAY_THEN_CANCEL };
    /** Clients submitting one cart's token at once in the fault scenarios, one per instance. */
    static final int COPIES = Deployment.INSTANCES;
    static final Duration RECOVERY_LIMIT = Duration.ofSeconds(120);
    /**
     * The longest a fault is held while clients have not yet run into it: with PostgreSQL down, a request waits up to
     * 5 s for a connection before it is answered 503.
     */
    private static final Duration LONGEST_HOLD = Duration.ofSeconds(15);
    /** How many errors clients must have seen before a fault is taken away. */
    private static final int ERRORS_TO_FEEL = 10;
    private static final Duration PROGRESS_LIMIT = Duration.ofSeconds(300);

    /** A fault, injected and taken away again; returns System.nanoTime() when it was taken away. */
    @FunctionalInterface
    interface Fault {
        long inject(Traffic traffic, long injectedAt);
    }

    private final Deployment deployment;
    private final ProofSettings settings;

    Scenarios(Deployment deployment, ProofSettings settings) {
        this.deployment = deployment;
        this.settings = settings;
    }

    /**
     * Keeps a fault on until clients have run into it, or for {@link #LONGEST_HOLD}, then takes it away; fails if they had not.
     * Returns System.nanoTime() when it began to take the fault away.
     */
    static long holdUntilFelt(Traffic traffic, long injectedAt, Runnable takeAway) {
        boolean felt = Processes.await(LONGEST_HOLD, () -> traffic.errorsBetween(injectedAt, System.nanoTime()) >= ERRORS_TO_FEEL);
        long takingAway = System.nanoTime();
        takeAway.run();
        assertThat(felt).as("%d errors seen by clients within %d s of the fault", ERRORS_TO_FEEL, LONGEST_HOLD.toSeconds()).isTrue();
        return takingAway;
    }

    /** Fails unless a request sent while the fault held was held up by it: what a stall does, which may fail nothing. */
    static void requireHeldUp(Traffic traffic, long injectedAt, long takenAway) {
        // Requests held up by the fault are answered just after it ends.
        Processes.require(LONGEST_HOLD, "a request sent during the fault answered " + Traffic.HELD_UP.toSeconds() + " s or more later",
                () -> traffic.heldUpBetween(injectedAt, takenAway) > 0);
    }

    /**
     * Customers shop on every instance all along; after some journeys the fault strikes, and strikes
     * again after as many journeys more, as often as the mode says; then the carts are audited.
     */
    Figures underFaults(String scenario, Fault fault) {
        return underFaults(scenario, number -> new Cart(scenario, number, MIXED_PLANS[number % MIXED_PLANS.length], COPIES), fault);
    }

    Figures underFaults(String scenario, IntFunction<Cart> carts, Fault fault) {
        Traffic traffic = new Traffic();
        ProofClient client = client(traffic);
        Shoppers shoppers = Shoppers.start(client, Deployment.INSTANCES, settings.shoppers(), carts);
        long errorsDuringFaults = 0;
        long slowestRecovery = 0;
        try (shoppers) {
            awaitJourneys(shoppers, settings.journeysBetween());
            for (int strike = 0; strike < settings.faultsPerScenario(); strike++) {
                long injectedAt = System.nanoTime();
                long takenAway = fault.inject(traffic, injectedAt);
                Processes.require(RECOVERY_LIMIT, "every instance ready again by itself after " + scenario, deployment::allReady);
                long recovered = System.nanoTime();
                slowestRecovery = Math.max(slowestRecovery, Duration.ofNanos(recovered - takenAway).toMillis());
                errorsDuringFaults += traffic.errorsBetween(injectedAt, recovered);
                awaitJourneys(shoppers, shoppers.completed() + settings.journeysBetween());
            }
            shoppers.stop();
        }
        // Each journey awaited before, between and after the faults makes an order.
        int leastOrders = settings.journeysBetween() * (settings.faultsPerScenario() + 1);
        return audit(scenario, client, traffic, shoppers.finish(), leastOrders, settings.faultsPerScenario(), errorsDuringFaults, slowestRecovery);
    }

    static void awaitJourneys(Shoppers shoppers, int completed) {
        Processes.require(PROGRESS_LIMIT, completed + " shopping journeys completed", () -> shoppers.completed() >= completed);
    }

    List<Cart> shop(ProofClient client, int shoppers, IntFunction<Cart> carts) {
        return Shoppers.start(client, Deployment.INSTANCES, shoppers, carts).finish();
    }

    /**
     * Audits the carts, publishes the scenario's line of figures and asserts that the orders were made (one for each cart
     * that got its order token, every cart got one, at least leastOrders) and nothing was lost, doubled or left unconverged.
     */
    Figures audit(String scenario, ProofClient client, Traffic traffic, List<Cart> carts, int leastOrders, int faults, long errorsDuringFaults,
            long recoveredMillis) {
        long requests = traffic.requests();
        Audit.Findings findings = new Audit(deployment, client).check(carts);
        Figures figures = new Figures(scenario, requests, faults, errorsDuringFaults, recoveredMillis, findings, traffic.serverErrors(),
                traffic.heldUp());
        figures.publish(settings.results());
        int tokened = (int) carts.stream().filter(cart -> !cart.tokens.isEmpty()).count();
        assertThat(findings.brokenOff()).as(scenario + ": journeys broken off without an order token").isEmpty();
        assertThat(findings.orders()).as(scenario + ": orders, one for each cart that got its order token").isEqualTo(tokened);
        assertThat(findings.orders()).as(scenario + ": orders made").isGreaterThanOrEqualTo(leastOrders);
        assertThat(findings.duplicates()).as(scenario + ": duplicates").isEmpty();
        assertThat(findings.lost()).as(scenario + ": lost").isEmpty();
        assertThat(findings.unconverged()).as(scenario + ": unconverged").isEmpty();
        assertThat(findings.unconsumedEvents()).as(scenario + ": order events never consumed").isZero();
        assertThat(traffic.serverErrors()).as(scenario + ": 500 answers (a backing service failing is a 503)").isZero();
        return figures;
    }

    ProofClient client(Traffic traffic) {
        return new ProofClient(deployment.http, deployment::bases, traffic);
    }
}
