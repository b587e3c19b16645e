package io.orderflow.proof.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.orderflow.support.ReservedPorts;
import io.orderflow.support.Resp;

/**
 * A Redis Cluster of the proof's own: three masters with a replica each, from the machine's redis-server
 * and redis-cli, every node in a temporary directory of its own. Each node takes a reserved port and its
 * cluster bus a second one ({@code --cluster-port}): the default bus port, the node's port plus 10000,
 * would fall into the kernel's ephemeral range, where any outgoing connection may hold it. Nothing is kept
 * on disk but each node's nodes.conf, which is what lets a killed node come back into the cluster. The
 * faults: a master killed (its replica takes over after the node timeout), a planned failover, a node
 * restarted, a slot moved to another master. The machine's shared Redis is never touched.
 */
final class PrivateRedisCluster implements AutoCloseable {

    static final int MASTERS = 3;
    /** How long a node may go unanswered before the others count it failed: a replica takes over a little after. */
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(2000);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration SETTLE_LIMIT = Duration.ofSeconds(60);
    /** How much a master writes, beyond what its stopped replica has, before it is killed: a few commands under load. */
    private static final long UNREPLICATED_BYTES = 4096;
    private static final int MAX_REDIRECTS = 5;
    /** Keys moved by one MIGRATE. */
    private static final int MIGRATE_BATCH = 100;
    private static final Pattern MOVED = Pattern.compile("MOVED \\d+ [^ ]*:(\\d+)$");

    private final Path dir;
    private final List<Node> nodes;
    /** By port: the redis-server started last on it. */
    private final Map<Integer, Process> processes = new ConcurrentHashMap<>();
    private final AtomicLong redirects = new AtomicLong();

    private PrivateRedisCluster(Path dir, List<Node> nodes) {
        this.dir = dir;
        this.nodes = nodes;
    }

    static PrivateRedisCluster start() {
        try {
            Path dir = Files.createTempDirectory("proof-redis-cluster-");
            List<Node> nodes = new ArrayList<>();
            for (int i = 0; i < 2 * MASTERS; i++) {
                int port = ReservedPorts.next();
                nodes.add(new Node(port, ReservedPorts.next(), Files.createDirectory(dir.resolve(String.valueOf(port)))));
            }
            PrivateRedisCluster cluster = new PrivateRedisCluster(dir, nodes);
            try {
                nodes.forEach(cluster::launch);
                cluster.create();
                return cluster;
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void create() {
        List<String> command = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        nodes.forEach(node -> command.add("127.0.0.1:" + node.port));
        command.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
        Processes.run(COMMAND_TIMEOUT, command.toArray(String[]::new));
        awaitSettled("the cluster is formed", () -> masters().size() == MASTERS);
    }

    /** Every node, in the form quarkus.redis.hosts takes with quarkus.redis.client-type=cluster. */
    String hosts() {
        return nodes.stream().map(node -> "redis://127.0.0.1:" + node.port).collect(Collectors.joining(","));
    }

    /** The ports of the nodes running now. */
    List<Integer> livePorts() {
        return live().stream().map(node -> node.port).toList();
    }

    /** Every node's port, killed ones included. */
    List<Integer> ports() {
        return nodes.stream().map(node -> node.port).toList();
    }

    /** The ports of the masters that serve slots, as a live node sees them. */
    List<Integer> masters() {
        return viewOf(anyLive()).stream().filter(seen -> !seen.slots.isEmpty()).map(ClusterNode::port).sorted().toList();
    }

    /** The port of the master serving the slot, by CLUSTER SLOTS on a live node. */
    int masterOf(int slot) {
        for (Object range : (List<?>) Resp.command(anyLive(), "CLUSTER", "SLOTS")) {
            List<?> fields = (List<?>) range;
            if ((Long) fields.get(0) <= slot && slot <= (Long) fields.get(1)) {
                return ((Long) ((List<?>) fields.get(2)).get(1)).intValue();
            }
        }
        throw new IllegalStateException("No node serves slot " + slot);
    }

    /** The master the node at askedPort holds to serve the slot in its CLUSTER NODES, or -1 for none. */
    int ownerSeenBy(int askedPort, int slot) {
        return viewOf(askedPort).stream().filter(seen -> seen.slots.get(slot)).mapToInt(ClusterNode::port).findFirst().orElse(-1);
    }

    /** A live replica of the master. */
    int replicaOf(int masterPort) {
        List<ClusterNode> view = viewOf(anyLive());
        String masterId = view.stream().filter(seen -> seen.port == masterPort).findFirst().orElseThrow().id;
        return view.stream().filter(seen -> masterId.equals(seen.masterId) && alive(seen.port)).mapToInt(ClusterNode::port).findFirst()
                .orElseThrow(() -> new IllegalStateException("No live replica of " + masterPort));
    }

    /** "master" or "slave", by ROLE. */
    String role(int port) {
        return (String) ((List<?>) Resp.command(port, "ROLE")).get(0);
    }

    /** CLUSTER KEYSLOT on a live node. */
    int keySlot(String key) {
        return ((Long) Resp.command(anyLive(), "CLUSTER", "KEYSLOT", key)).intValue();
    }

    /** DBSIZE of one node. */
    long keysOn(int port) {
        return (Long) Resp.command(port, "DBSIZE");
    }

    /**
     * Sends a command for a key as a cluster client without a slot map does: to one node first, then to
     * wherever a MOVED answer points, each time on a connection of its own.
     */
    Object send(String... command) {
        int port = anyLive();
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            try {
                return Resp.command(port, command);
            } catch (IllegalStateException answer) {
                Matcher moved = MOVED.matcher(String.valueOf(answer.getMessage()));
                if (!moved.find()) {
                    throw answer;
                }
                redirects.incrementAndGet();
                port = Integer.parseInt(moved.group(1));
            }
        }
        throw new IllegalStateException("More than " + MAX_REDIRECTS + " redirects for " + String.join(" ", command));
    }

    /** How many MOVED answers {@link #send} has followed. */
    long redirectsFollowed() {
        return redirects.get();
    }

    /**
     * Waits until every live replica has every write its master has taken, so that a master killed next
     * loses nothing: replication is asynchronous, and a kill loses what the replica had not yet received.
     */
    void awaitReplicasCaughtUp() {
        Processes.require(SETTLE_LIMIT, "every replica has its master's writes", () -> masters().stream().allMatch(master -> {
            long written = offset(master);
            return liveReplicasOf(master).stream().allMatch(replica -> Long.parseLong(Resp.info(replica, "replication", "slave_repl_offset")) >= written);
        }));
    }

    /**
     * SIGKILL of a master, with no warning to anyone; returns how long it took until its replica served
     * its slots and every live node agreed and saw the cluster ok again (about the node timeout and an
     * election). Writes its replica had not received are lost: see {@link #awaitReplicasCaughtUp}.
     */
    Duration killMaster(int port) {
        int replica = replicaOf(port);
        long start = System.nanoTime();
        processes.get(port).destroyForcibly();
        awaitExit(port);
        awaitSettled("replica " + replica + " took over from killed master " + port, () -> "master".equals(role(replica)));
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * SIGKILL of a master whose replica is behind: the replication link between them is cut (the master
     * drops it, and the replica cannot make it again, as it now authenticates with a password the master
     * does not have) until the master has taken at least {@link #UNREPLICATED_BYTES} of writes the replica
     * never got; then the master is killed and the replica is promoted without them, as when a master dies
     * with its replication lagging. The replica serves its clients all along, as one behind a partition
     * does (a stopped replica would stall every client that connects to it instead). Returns how long from
     * the kill until the replica served the master's slots.
     */
    Duration killMasterAheadOfItsReplica(int port) {
        int replica = replicaOf(port);
        Resp.command(replica, "CONFIG", "SET", "masterauth", "link-cut-by-the-proof");
        try {
            Resp.command(port, "CLIENT", "KILL", "TYPE", "replica");
            Processes.require(SETTLE_LIMIT, "master " + port + " took writes its cut-off replica " + replica + " never got",
                    () -> offset(port) - offset(replica) >= UNREPLICATED_BYTES);
            long start = System.nanoTime();
            processes.get(port).destroyForcibly();
            awaitExit(port);
            awaitSettled("replica " + replica + ", behind, took over from killed master " + port, () -> "master".equals(role(replica)));
            return Duration.ofNanos(System.nanoTime() - start);
        } finally {
            // An empty masterauth is none: the node replicates as before whenever it is a replica again.
            Resp.command(replica, "CONFIG", "SET", "masterauth", "");
        }
    }

    private static long offset(int master) {
        return Long.parseLong(Resp.info(master, "replication", "master_repl_offset"));
    }

    /** CLUSTER FAILOVER on a replica: master and replica swap roles once the replica has every write, nothing is lost. */
    Duration plannedFailover(int replicaPort) {
        String masterId = viewOf(replicaPort).stream().filter(ClusterNode::myself).findFirst().orElseThrow().masterId;
        int master = viewOf(replicaPort).stream().filter(seen -> seen.id.equals(masterId)).mapToInt(ClusterNode::port).findFirst().orElseThrow();
        long start = System.nanoTime();
        Resp.command(replicaPort, "CLUSTER", "FAILOVER");
        awaitSettled("replica " + replicaPort + " and master " + master + " swapped roles",
                () -> "master".equals(role(replicaPort)) && "slave".equals(role(master)));
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * Starts a killed node again on its port with its nodes.conf: it rejoins, learns that its slots moved
     * on, and becomes a replica of the master now serving them; returns when it has copied that master.
     */
    Duration restartNode(int port) {
        Node node = node(port);
        if (alive(port)) {
            throw new IllegalStateException("Node " + port + " is running");
        }
        long start = System.nanoTime();
        launch(node);
        awaitSettled("restarted node " + port + " rejoined as a replica", () -> "slave".equals(role(port)));
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * Moves one slot and its keys to another master, as redis-cli's reshard does it for each slot: the
     * target IMPORTING, the source MIGRATING, MIGRATE of the keys in batches, then SETSLOT NODE on the
     * target, the source and the other masters. Returns how many keys moved, once every live node holds
     * the target as the slot's owner.
     */
    int migrateSlot(int slot, int toPort) {
        int fromPort = masterOf(slot);
        if (fromPort == toPort) {
            return 0;
        }
        String from = myId(fromPort);
        String to = myId(toPort);
        String slotNumber = String.valueOf(slot);
        Resp.command(toPort, "CLUSTER", "SETSLOT", slotNumber, "IMPORTING", from);
        Resp.command(fromPort, "CLUSTER", "SETSLOT", slotNumber, "MIGRATING", to);
        int moved = 0;
        for (List<?> keys = keysInSlot(fromPort, slotNumber); !keys.isEmpty(); keys = keysInSlot(fromPort, slotNumber)) {
            List<String> migrate = new ArrayList<>(List.of("MIGRATE", "127.0.0.1", String.valueOf(toPort), "", "0", String.valueOf(COMMAND_TIMEOUT.toMillis()), "KEYS"));
            keys.forEach(key -> migrate.add((String) key));
            Resp.command(fromPort, migrate.toArray(String[]::new));
            moved += keys.size();
        }
        List<Integer> owners = new ArrayList<>(List.of(toPort, fromPort));
        masters().stream().filter(master -> !owners.contains(master)).forEach(owners::add);
        owners.forEach(owner -> Resp.command(owner, "CLUSTER", "SETSLOT", slotNumber, "NODE", to));
        awaitSettled("every node holds " + toPort + " as the owner of slot " + slot,
                () -> live().stream().allMatch(node -> ownerSeenBy(node.port, slot) == toPort));
        return moved;
    }

    private static List<?> keysInSlot(int port, String slot) {
        return (List<?>) Resp.command(port, "CLUSTER", "GETKEYSINSLOT", slot, String.valueOf(MIGRATE_BATCH));
    }

    private String myId(int port) {
        return (String) Resp.command(port, "CLUSTER", "MYID");
    }

    private List<Integer> liveReplicasOf(int masterPort) {
        List<ClusterNode> view = viewOf(masterPort);
        String masterId = view.stream().filter(ClusterNode::myself).findFirst().orElseThrow().id;
        return view.stream().filter(seen -> masterId.equals(seen.masterId) && alive(seen.port)).map(ClusterNode::port).toList();
    }

    /** Waits until the condition holds and the cluster has settled (see {@link #settled}). */
    private void awaitSettled(String what, BooleanSupplier condition) {
        if (!Processes.await(SETTLE_LIMIT, () -> answered(condition) && settled())) {
            throw new IllegalStateException("Not within " + SETTLE_LIMIT.toSeconds() + " s: " + what + "; logs in " + dir);
        }
    }

    /**
     * Settled: every live node answers cluster_state:ok, knows every node, flags no live node as failing,
     * holds the same owners for every slot, all of them live, and every live replica's link to its master
     * is up.
     */
    private boolean settled() {
        String agreed = null;
        for (Node node : live()) {
            try {
                if (!"ok".equals(clusterState(node.port))) {
                    return false;
                }
                List<ClusterNode> view = viewOf(node.port);
                if (view.size() != nodes.size() || view.stream().anyMatch(seen -> seen.failing() && alive(seen.port))) {
                    return false;
                }
                String owners = view.stream().filter(seen -> !seen.slots.isEmpty()).sorted(Comparator.comparingInt(ClusterNode::port))
                        .map(seen -> seen.port + ":" + seen.ranges).collect(Collectors.joining(" "));
                if (agreed != null && !agreed.equals(owners)
                        || view.stream().anyMatch(seen -> !seen.slots.isEmpty() && !alive(seen.port))) {
                    return false;
                }
                agreed = owners;
                boolean replica = view.stream().filter(ClusterNode::myself).anyMatch(seen -> seen.flags.contains("slave"));
                if (replica && !"up".equals(Resp.info(node.port, "replication", "master_link_status"))) {
                    return false;
                }
            } catch (RuntimeException notAnswering) {
                return false;
            }
        }
        return agreed != null;
    }

    /** cluster_state of the node's CLUSTER INFO: "ok" or "fail". */
    static String clusterState(int port) {
        return ((String) Resp.command(port, "CLUSTER", "INFO")).lines().filter(line -> line.startsWith("cluster_state:"))
                .map(line -> line.substring("cluster_state:".length()).trim()).findFirst().orElse("");
    }

    private static boolean answered(BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    /** The node's CLUSTER NODES, parsed. */
    private static List<ClusterNode> viewOf(int port) {
        return ((String) Resp.command(port, "CLUSTER", "NODES")).lines().filter(line -> !line.isBlank()).map(ClusterNode::parse).toList();
    }

    private int anyLive() {
        return live().stream().findFirst().orElseThrow(() -> new IllegalStateException("No node of the cluster runs")).port;
    }

    private List<Node> live() {
        return nodes.stream().filter(node -> alive(node.port)).toList();
    }

    private boolean alive(int port) {
        Process process = processes.get(port);
        return process != null && process.isAlive();
    }

    private Node node(int port) {
        return nodes.stream().filter(node -> node.port == port).findFirst().orElseThrow(() -> new IllegalArgumentException("No node on port " + port));
    }

    private void launch(Node node) {
        List<String> command = List.of("redis-server", "--port", String.valueOf(node.port), "--cluster-port", String.valueOf(node.busPort),
                "--bind", "127.0.0.1", "--cluster-enabled", "yes", "--cluster-config-file", node.dir.resolve("nodes-" + node.port + ".conf").toString(),
                "--cluster-node-timeout", String.valueOf(NODE_TIMEOUT.toMillis()), "--save", "", "--appendonly", "no", "--dir", node.dir.toString());
        try {
            processes.put(node.port, Processes.yielding(command.toArray(String[]::new)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(node.dir.resolve("redis.log").toFile())).start());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start redis-server", e);
        }
        Processes.require(Duration.ofSeconds(10), "redis-server on port " + node.port + " accepts connections", () -> Processes.listening(node.port));
    }

    private void awaitExit(int port) {
        try {
            if (!processes.get(port).waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-server on port " + port + " did not exit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Stops every node it started (SIGTERM, SIGKILL if one lingers) and deletes their directories. */
    @Override
    public void close() {
        try {
            List<Node> running = live();
            running.forEach(node -> processes.get(node.port).destroy());
            for (Node node : running) {
                try {
                    if (!processes.get(node.port).waitFor(10, TimeUnit.SECONDS)) {
                        processes.get(node.port).destroyForcibly();
                        awaitExit(node.port);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        } finally {
            Processes.run(COMMAND_TIMEOUT, "rm", "-rf", dir.toString());
        }
    }

    /** A node's client port, cluster bus port and directory; its process, while it runs, is in {@code processes}. */
    private record Node(int port, int busPort, Path dir) {
    }

    /** One line of CLUSTER NODES: id, address, flags, master, ..., the slots served (migration marks left out). */
    private record ClusterNode(String id, int port, Set<String> flags, String masterId, String ranges, BitSet slots) {

        static ClusterNode parse(String line) {
            String[] fields = line.trim().split(" ");
            String address = fields[1];
            int at = address.indexOf('@');
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':', at) + 1, at));
            List<String> ranges = new ArrayList<>();
            BitSet slots = new BitSet();
            for (int i = 8; i < fields.length; i++) {
                if (fields[i].startsWith("[")) {
                    continue;
                }
                ranges.add(fields[i]);
                String[] bounds = fields[i].split("-");
                slots.set(Integer.parseInt(bounds[0]), Integer.parseInt(bounds[bounds.length - 1]) + 1);
            }
            return new ClusterNode(fields[0], port, Set.of(fields[2].split(",")), fields[3], String.join(",", ranges), slots);
        }

        boolean myself() {
            return flags.contains("myself");
        }

        boolean failing() {
            return flags.contains("fail") || flags.contains("fail?");
        }
    }
}
