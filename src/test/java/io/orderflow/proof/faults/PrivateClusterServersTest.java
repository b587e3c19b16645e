package io.orderflow.proof.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.orderflow.support.BesideTheApp;
import io.orderflow.support.ClusterSlots;

/**
 * The servers a failover proof will run on, started privately from the machine's binaries: a Redis
 * Cluster (three masters, three replicas) and a pg_auto_failover formation (monitor, primary, synchronous
 * standby). Their faults do what such a proof will expect of them: a killed master's replica takes over
 * with every key it had, a planned failover and a slot's move keep every key, and the formation keeps
 * every committed row through a switchover and through the primary's node killed whole. Each failover's
 * duration is printed. Tagged failover: it runs with the proof over failovers (FailoverIT), which needs
 * pg_auto_failover installed, not in every build.
 */
@Tag("failover")
@BesideTheApp
class PrivateClusterServersTest {

    private static final int KEYS = 1000;
    /** Keys written into one slot before it moves: more than one MIGRATE batch. */
    private static final int TAGGED = 150;
    private static final int ROWS_PER_PHASE = 100;
    /** How long a client keeps retrying through the multi-host URL while the driver finds the new primary. */
    private static final Duration CLIENT_RETRY_LIMIT = Duration.ofSeconds(60);

    @Test
    void redisClusterKeepsEveryKeyThroughAKilledMasterAPlannedFailoverAndAMovedSlot() {
        try (PrivateRedisCluster cluster = PrivateRedisCluster.start()) {
            List<String> probes = List.of("123456789", "foo", "bar", "order:1", "{user1000}.following", "{user1000}.followers", "foo{}{bar}",
                    "foo{{bar}}zap", "foo{bar}{zap}", "{}", "{", "}", "a{b}c", "t_abc:{order-42}:lease", "t_abc:{order-42}:token", "prix-é",
                    "{}{x}", "x{}", "{a", "");
            for (String key : probes) {
                assertEquals(cluster.keySlot(key), ClusterSlots.slot(key), "slot of \"" + key + "\"");
            }
            assertEquals(12739, ClusterSlots.slot("123456789"), "the CRC16 check value 0x31C3 of Redis's cluster specification");
            assertEquals(ClusterSlots.slot("order-42"), ClusterSlots.slot("t_abc:{order-42}:lease"), "a hash tag alone decides the slot");

            for (int i = 0; i < KEYS; i++) {
                assertEquals("OK", cluster.send("SET", key(i), value(i)));
            }
            assertTrue(cluster.redirectsFollowed() > 0, "some writes were sent on by MOVED");
            System.out.println("[cluster] " + KEYS + " keys written over " + IntStream.range(0, KEYS).map(i -> ClusterSlots.slot(key(i))).distinct().count()
                    + " slots, " + cluster.redirectsFollowed() + " MOVED answers followed; nodes " + cluster.hosts());
            assertKeysPlacedBySlot(cluster);
            cluster.awaitReplicasCaughtUp();

            int slot = ClusterSlots.slot(key(0));
            int victim = cluster.masterOf(slot);
            int replica = cluster.replicaOf(victim);
            Duration takeover = cluster.killMaster(victim);
            System.out.println("[failover] Redis Cluster: master " + victim + " killed, replica " + replica + " serving its slots in "
                    + takeover.toMillis() + " ms");
            assertEquals(replica, cluster.masterOf(slot));
            assertEquals("master", cluster.role(replica));
            cluster.livePorts().forEach(port -> assertEquals("ok", PrivateRedisCluster.clusterState(port), "cluster_state on " + port));
            assertEveryKeyReadable(cluster, 0);

            Duration rejoin = cluster.restartNode(victim);
            System.out.println("[failover] Redis Cluster: killed node " + victim + " back as a replica in " + rejoin.toMillis() + " ms");
            assertEquals("slave", cluster.role(victim));
            Duration planned = cluster.plannedFailover(victim);
            System.out.println("[failover] Redis Cluster: planned failover back to " + victim + " in " + planned.toMillis() + " ms");
            assertEquals(victim, cluster.masterOf(slot));
            assertEquals("slave", cluster.role(replica));
            assertEveryKeyReadable(cluster, 0);

            for (int i = 0; i < TAGGED; i++) {
                assertEquals("OK", cluster.send("SET", taggedKey(i), value(i)));
            }
            assertEquals(slot, cluster.keySlot(taggedKey(TAGGED - 1)), "the hash tag {" + key(0) + "} puts a key in the slot of " + key(0));
            int target = cluster.masters().stream().filter(master -> master != victim).findFirst().orElseThrow();
            long inSlot = TAGGED + IntStream.range(0, KEYS).filter(i -> ClusterSlots.slot(key(i)) == slot).count();
            int source = cluster.masterOf(slot);
            assertEquals(inSlot, cluster.migrateSlot(slot, target), "keys moved with slot " + slot);
            System.out.println("[cluster] slot " + slot + " and its " + inSlot + " key(s) moved from " + source + " to " + target);
            assertEquals(slot, cluster.keySlot(key(0)));
            assertEquals(target, cluster.masterOf(slot));
            for (int port : cluster.livePorts()) {
                assertEquals(target, cluster.ownerSeenBy(port, slot), "owner of slot " + slot + " in the CLUSTER NODES of " + port);
            }
            assertEquals(value(0), cluster.send("GET", key(0)));
            assertEveryKeyReadable(cluster, TAGGED);
        }
    }

    @Test
    void pgFormationKeepsEveryCommittedRowThroughASwitchoverAndThePrimaryKilledWhole() throws SQLException {
        if (!PrivatePgFormation.installed()) {
            throw new IllegalStateException("pg_autoctl is not installed (Debian: apt-get install postgresql-15-auto-failover)");
        }
        try (PrivatePgFormation formation = PrivatePgFormation.start()) {
            formation.createDatabase("proof");
            String url = formation.jdbcUrl("proof");
            try (Connection connection = DriverManager.getConnection(url, PrivatePgFormation.USER, "");
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE kept (id int PRIMARY KEY, phase text NOT NULL)");
            }
            insert(url, 1, "before the switchover");

            int first = formation.primaryPort();
            Duration switchover = formation.switchover();
            System.out.println("[failover] pg_auto_failover: switchover from " + first + " to " + formation.primaryPort() + " in "
                    + switchover.toMillis() + " ms");
            assertNotEquals(first, formation.primaryPort());
            insert(url, 2, "after the switchover");
            assertEquals(List.of("before the switchover 100 1-100", "after the switchover 100 101-200"), phases(url));

            int second = formation.primaryPort();
            Duration failover = formation.killPrimaryWhole();
            System.out.println("[failover] pg_auto_failover: primary " + second + " killed whole, " + formation.primaryPort() + " taking writes in "
                    + failover.toMillis() + " ms");
            assertEquals(first, formation.primaryPort());
            assertEquals(List.of("before the switchover 100 1-100", "after the switchover 100 101-200"), phases(url), "every committed row kept");
            insert(url, 3, "after the kill");
            List<String> all = List.of("before the switchover 100 1-100", "after the switchover 100 101-200", "after the kill 100 201-300");
            assertEquals(all, phases(url));

            Duration back = formation.restartKilledNode();
            System.out.println("[failover] pg_auto_failover: killed node " + second + " back as the standby in " + back.toMillis() + " ms");
            assertEquals(first, formation.primaryPort());
            try (Connection standby = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + second + "/proof", PrivatePgFormation.USER, "");
                    Statement statement = standby.createStatement();
                    ResultSet recovery = statement.executeQuery("SELECT pg_is_in_recovery()")) {
                assertTrue(recovery.next() && recovery.getBoolean(1), "the restarted node is a standby");
            }
            assertEquals(all, phases("jdbc:postgresql://127.0.0.1:" + second + "/proof"), "the standby has every row");
        }
    }

    private static String key(int i) {
        return "proof:" + i;
    }

    /** In the slot of key(0), whatever follows the tag. */
    private static String taggedKey(int i) {
        return "{" + key(0) + "}:" + i;
    }

    private static String value(int i) {
        return "v" + i;
    }

    /** Every master holds exactly the keys whose slot it serves, and together they hold every key once. */
    private static void assertKeysPlacedBySlot(PrivateRedisCluster cluster) {
        Map<Integer, Integer> ownerOfSlot = new HashMap<>();
        Map<Integer, Long> expected = new HashMap<>();
        for (int i = 0; i < KEYS; i++) {
            int owner = ownerOfSlot.computeIfAbsent(ClusterSlots.slot(key(i)), cluster::masterOf);
            expected.merge(owner, 1L, Long::sum);
        }
        assertEquals(PrivateRedisCluster.MASTERS, expected.size(), "keys on every master");
        for (int master : cluster.masters()) {
            assertEquals(expected.getOrDefault(master, 0L).longValue(), cluster.keysOn(master), "keys on master " + master);
        }
    }

    /** Every key written, spread and tagged, is there once and readable by following MOVED. */
    private static void assertEveryKeyReadable(PrivateRedisCluster cluster, int tagged) {
        assertEquals(KEYS + tagged, cluster.masters().stream().mapToLong(cluster::keysOn).sum(), "keys on the masters");
        for (int i = 0; i < KEYS; i++) {
            assertEquals(value(i), cluster.send("GET", key(i)));
        }
        for (int i = 0; i < tagged; i++) {
            assertEquals(value(i), cluster.send("GET", taggedKey(i)));
        }
    }

    /**
     * Inserts the phase's rows through the multi-host URL, retrying as a client would while the driver
     * finds the primary; ON CONFLICT makes a retried row count once.
     */
    private static void insert(String url, int phase, String name) {
        int from = (phase - 1) * ROWS_PER_PHASE + 1;
        Processes.require(CLIENT_RETRY_LIMIT, "rows " + from + " to " + (from + ROWS_PER_PHASE - 1) + " inserted through " + url, () -> {
            try (Connection connection = DriverManager.getConnection(url, PrivatePgFormation.USER, "");
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO kept VALUES (?, ?) ON CONFLICT (id) DO NOTHING")) {
                for (int id = from; id < from + ROWS_PER_PHASE; id++) {
                    insert.setInt(1, id);
                    insert.setString(2, name);
                    insert.executeUpdate();
                }
                return true;
            } catch (SQLException notYet) {
                return false;
            }
        });
    }

    /** Per phase, in order: its name, how many rows, the lowest and highest id. */
    private static List<String> phases(String url) throws SQLException {
        List<String> phases = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url, PrivatePgFormation.USER, "");
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT phase, count(*), min(id), max(id) FROM kept GROUP BY phase ORDER BY min(id)")) {
            while (rows.next()) {
                phases.add(rows.getString(1) + " " + rows.getLong(2) + " " + rows.getInt(3) + "-" + rows.getInt(4));
            }
        }
        return phases;
    }
}
