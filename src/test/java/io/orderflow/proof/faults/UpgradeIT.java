package io.orderflow.proof.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Proof through a rolling upgrade, as Kubernetes runs one with {@code maxUnavailable: 0}: the release before
 * this one (built from its commit) serves on a schema of its own making; this release's first instance migrates
 * the schema on while the old ones serve, then joins them; an old instance restarted then starts on the new
 * schema; both releases answer replays of what the other stored; then the old instances get SIGTERM one by
 * one, a new one starting in between. Clients shop all along over whichever instances are in service,
 * retrying as real ones do, and the fault proof's audit finds nothing lost or doubled. Run by .ci/run; it
 * packages the previous release once (offline, from the local Maven repository).
 */
@Tag("upgrade")
class UpgradeIT {

    private static final String SCENARIO = "rolling-upgrade";
    private static final Path MIGRATIONS = Path.of("src/main/resources/db/migration");
    private static final Pattern VERSIONED = Pattern.compile("V(\\d+)__.*\\.sql");
    private static final String SCHEMA_VERSION = "SELECT max(version::int) FROM flyway_schema_history WHERE success AND version IS NOT NULL";
    private static final int OLD_INSTANCES = 2;

    private final ProofSettings settings = ProofSettings.fromSystemProperties("upgrade");

    @Test
    void thePreviousReleaseAndThisOneServeTogetherThroughARollingUpgradeLosingAndDoublingNothing() throws IOException {
        Files.deleteIfExists(settings.results());
        Path previousJar = PreviousRelease.jar();
        try (Deployment deployment = Deployment.withoutInstances(settings, SingleServers.start())) {
            rollOut(deployment, previousJar);
        }
    }

    private void rollOut(Deployment deployment, Path previousJar) throws IOException {
        Scenarios scenarios = new Scenarios(deployment, settings);
        int journeys = settings.journeysBetween();
        Traffic traffic = new Traffic();
        ProofClient client = scenarios.client(traffic);
        // The old release alone: its first instance makes the schema (up to its newest migration), the other joins.
        List<ServiceInstance> old = new ArrayList<>();
        for (int i = 0; i < OLD_INSTANCES; i++) {
            old.add(deployment.putInService("old-" + i, previousJar));
        }
        long oldSchema = deployment.number(SCHEMA_VERSION);
        List<Cart> onOld = scenarios.shop(client, settings.shoppers(), number -> number < journeys ? cart("upgrade-old", number) : null);

        Shoppers rolling = Shoppers.start(client, Deployment.INSTANCES, settings.shoppers(), number -> cart(SCENARIO, number));
        List<Duration> stops = new ArrayList<>();
        List<String> oldToNew;
        List<String> newToOld;
        List<Cart> onNew;
        long newSchema;
        long restartedOldMillis;
        long firstStop;
        long lastStop;
        long slowestRecovery = 0;
        try (rolling) {
            Scenarios.awaitJourneys(rolling, journeys);
            // The new release's first instance migrates the schema on while the old ones serve, and joins them once ready.
            ServiceInstance firstNew = deployment.putInService("new-0", settings.jar());
            newSchema = deployment.number(SCHEMA_VERSION);
            // An old pod restarted now (evicted, rescheduled) starts on the new schema. The previous release's Flyway refuses a
            // schema with migrations it does not know unless told to ignore them: its pods need this setting for the upgrade.
            long restarting = System.nanoTime();
            deployment.takeOutOfService(old.get(1));
            old.get(1).configure(PreviousRelease.UPGRADE_SETTINGS);
            deployment.putBackInService(old.get(1));
            restartedOldMillis = Duration.ofNanos(System.nanoTime() - restarting).toMillis();
            Scenarios.awaitJourneys(rolling, rolling.completed() + journeys);

            // While both serve, each answers the requests the other answered first with the answer it stored.
            oldToNew = new Audit(deployment, servedBy(deployment, List.of(firstNew), traffic)).resendEverything(onOld);
            onNew = scenarios.shop(servedBy(deployment, List.of(firstNew), traffic), settings.shoppers(),
                    number -> number < journeys ? cart("upgrade-new", number) : null);
            newToOld = new Audit(deployment, servedBy(deployment, old, traffic)).resendEverything(onNew);

            // One old instance out, one new in, until none of the old is left; clients shop on in between.
            firstStop = System.nanoTime();
            for (int i = 0; i < OLD_INSTANCES; i++) {
                stops.add(deployment.takeOutOfService(old.get(i)));
                long exited = System.nanoTime();
                Processes.require(Scenarios.RECOVERY_LIMIT, "every instance in service ready after " + old.get(i).name() + " left", deployment::allReady);
                slowestRecovery = Math.max(slowestRecovery, Duration.ofNanos(System.nanoTime() - exited).toMillis());
                Scenarios.awaitJourneys(rolling, rolling.completed() + journeys);
                if (i + 1 < OLD_INSTANCES) {
                    deployment.putInService("new-" + (i + 1), settings.jar());
                }
            }
            lastStop = System.nanoTime();
            rolling.stop();
        }
        List<Cart> carts = Stream.of(onOld, onNew, rolling.finish()).flatMap(List::stream).toList();

        // Each journey awaited makes an order: on the old release alone, on the new alone, and around each step of the rollout.
        int leastOrders = journeys * (4 + OLD_INSTANCES);
        Figures figures = scenarios.audit(SCENARIO, client, traffic, carts, leastOrders, stops.size(), traffic.errorsBetween(firstStop, lastStop),
                slowestRecovery);
        Figures.publish(String.format("%-22s schema V%d -> V%d under %s; old instance restarted on it ready in %d ms;"
                + " replays old -> new %d, new -> old %d, answered otherwise %d; SIGTERM to exit %s",
                SCENARIO, oldSchema, newSchema, PreviousRelease.commit().substring(0, 7), restartedOldMillis, exchanges(onOld), exchanges(onNew),
                oldToNew.size() + newToOld.size(), stops.stream().map(stop -> stop.toMillis() + " ms").toList()), settings.results());

        assertThat(newSchema).as("the schema's version once the new release started").isEqualTo(newestMigration()).isGreaterThan(oldSchema);
        assertThat(oldToNew).as("requests answered by the old release, replayed to the new").isEmpty();
        assertThat(newToOld).as("requests answered by the new release, replayed to the old").isEmpty();
        assertThat(onOld).as("carts bought from the old release alone").hasSize(journeys);
        assertThat(onNew).as("carts bought from the new release alone").hasSize(journeys);
        assertThat(exchanges(onOld) + exchanges(onNew)).as("requests replayed across releases").isGreaterThanOrEqualTo(2L * journeys);
        assertThat(figures.findings().orders()).as("orders, one per cart").isEqualTo(carts.size());
    }

    private static Cart cart(String scenario, int number) {
        return new Cart(scenario, number, Scenarios.MIXED_PLANS[number % Scenarios.MIXED_PLANS.length], Scenarios.COPIES);
    }

    /** A client of these instances alone. */
    private static ProofClient servedBy(Deployment deployment, List<ServiceInstance> instances, Traffic traffic) {
        List<URI> bases = instances.stream().map(ServiceInstance::base).toList();
        return new ProofClient(deployment.http, () -> bases, traffic);
    }

    private static long exchanges(List<Cart> carts) {
        return carts.stream().mapToLong(cart -> cart.exchanges.size()).sum();
    }

    /** The version of this release's newest migration. */
    private static long newestMigration() throws IOException {
        try (Stream<Path> files = Files.list(MIGRATIONS)) {
            return files.map(file -> VERSIONED.matcher(file.getFileName().toString())).filter(Matcher::matches)
                    .mapToLong(version -> Long.parseLong(version.group(1))).max().orElseThrow();
        }
    }
}
