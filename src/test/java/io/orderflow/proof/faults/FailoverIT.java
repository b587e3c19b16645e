package io.orderflow.proof.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.orderflow.support.ClusterSlots;

/**
 * Proof over failovers: three packaged instances on a private Redis Cluster and a private PostgreSQL
 * failover formation, customers shopping on all of them and retrying as real clients do, while a Redis
 * master dies and its replica takes over (once in sync, once behind with the master's last writes lost),
 * the slot of the busiest order-event stream moves to another
 * master, PostgreSQL switches over as planned and its primary's whole node dies. Each scenario prints
 * its line of figures, and how long the failover took, and asserts that nothing was lost, nothing
 * doubled, every event consumed once and no answer was a 500. Run by {@code ops/proof/run.sh failover}
 * and, short, by .ci/run; it needs pg_auto_failover ({@code apt-get install postgresql-15-auto-failover}).
 */
@Tag("failover")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FailoverIT {

    /** The first order-event stream: the one every order of a single-stream deployment uses, and one of eight here. */
    private static final String FIRST_EVENT_STREAM = Deployment.KEY_PREFIX + "{events}:orders";

    private static ProofSettings settings;
    private static FailoverServers servers;
    private static Deployment deployment;
    private static Scenarios scenarios;

    @BeforeAll
    static void deploy() throws IOException {
        if (!PrivatePgFormation.installed()) {
            throw new IllegalStateException("The failover proof needs pg_autoctl: apt-get install postgresql-15-auto-failover");
        }
        settings = ProofSettings.fromSystemProperties("failover");
        Files.deleteIfExists(settings.results());
        servers = FailoverServers.start();
        deployment = Deployment.start(settings, servers);
        scenarios = new Scenarios(deployment, settings);
        System.out.println("[proof] " + settings.mode() + " failover run: " + Deployment.INSTANCES + " instances on " + deployment.bases()
                + ", Redis Cluster " + servers.cluster().hosts() + ", PostgreSQL formation " + servers.formation().ports());
    }

    @AfterAll
    static void tearDown() {
        if (deployment != null) {
            deployment.close();
        }
    }

    @Test
    @Order(1)
    void aRedisMasterKilledMidLoadIsReplacedByItsReplica() {
        killTheFirstEventStreamsMaster("redis-master-kill", "the replica took over", PrivateRedisCluster::killMaster);
    }

    /**
     * The failover that loses writes: the master dies with its replica behind, which is promoted without
     * the master's last tokens, leases and stream entries. Clients fetch new tokens for forgotten ones,
     * PostgreSQL keeps orders and keys unique, and order events no replica had stay in the outbox.
     */
    @Test
    @Order(2)
    void aRedisMasterKilledAheadOfItsReplicaLosesNoOrderAndNoEvent() {
        killTheFirstEventStreamsMaster("redis-kill-unreplicated", "the replica, behind, took over", PrivateRedisCluster::killMasterAheadOfItsReplica);
    }

    @Test
    @Order(3)
    void theBusiestEventStreamsSlotMovesToAnotherMasterMidLoad() {
        List<Duration> migrations = new ArrayList<>();
        scenarios.underFaults("redis-slot-migration", (traffic, injectedAt) -> {
            PrivateRedisCluster cluster = servers.cluster();
            int slot = ClusterSlots.slot(FIRST_EVENT_STREAM);
            int from = cluster.masterOf(slot);
            int to = cluster.masters().stream().filter(master -> master != from).findFirst().orElseThrow();
            long start = System.nanoTime();
            int moved = cluster.migrateSlot(slot, to);
            migrations.add(Duration.ofNanos(System.nanoTime() - start));
            assertThat(moved).as("keys moved with the slot of " + FIRST_EVENT_STREAM).isPositive();
            assertThat(cluster.masterOf(slot)).isEqualTo(to);
            return System.nanoTime();
        });
        publishFailovers("redis-slot-migration", "the slot moved", migrations);
    }

    @Test
    @Order(4)
    void aPlannedPostgresSwitchoverMidLoad() {
        List<Duration> switchovers = new ArrayList<>();
        scenarios.underFaults("postgres-switchover", (traffic, injectedAt) -> {
            switchovers.add(servers.formation().switchover());
            return System.nanoTime();
        });
        publishFailovers("postgres-switchover", "the standby took writes", switchovers);
    }

    @Test
    @Order(5)
    void thePostgresPrimarysNodeKilledMidLoadIsReplacedByTheStandby() {
        List<Duration> failovers = new ArrayList<>();
        scenarios.underFaults("postgres-primary-kill", (traffic, injectedAt) -> {
            failovers.add(servers.formation().killPrimaryWhole());
            long promoted = System.nanoTime();
            servers.formation().restartKilledNode();
            return promoted;
        });
        publishFailovers("postgres-primary-kill", "the standby was promoted and took writes", failovers);
    }

    /** Kills the master of the first order-event stream's slot mid-load, and brings the node back as a replica once clients felt it. */
    private static void killTheFirstEventStreamsMaster(String scenario, String what, BiFunction<PrivateRedisCluster, Integer, Duration> kill) {
        List<Duration> failovers = new ArrayList<>();
        scenarios.underFaults(scenario, (traffic, injectedAt) -> {
            PrivateRedisCluster cluster = servers.cluster();
            int master = cluster.masterOf(ClusterSlots.slot(FIRST_EVENT_STREAM));
            failovers.add(kill.apply(cluster, master));
            Scenarios.holdUntilFelt(traffic, injectedAt, () -> cluster.restartNode(master));
            return System.nanoTime();
        });
        publishFailovers(scenario, what, failovers);
    }

    private static void publishFailovers(String scenario, String what, List<Duration> durations) {
        Figures.publish(String.format("%-22s %s within %s", scenario, what,
                durations.stream().map(duration -> duration.toMillis() + " ms").toList()), settings.results());
    }
}
