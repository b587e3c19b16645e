package io.orderflow.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.orderflow.shared.embedded.EmbeddedServers;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A Redis master of the test's own with one replica; the app is given the master's address only.
 * The test may cut the replica off and then fail over to it at that address, as a client that follows
 * the master sees a failover. Started after {@link TestServers}; the shared Redis is never touched.
 */
public class PrivateRedisWithReplica implements QuarkusTestResourceLifecycleManager {

    private static final Duration STARTED_WITHIN = Duration.ofSeconds(10);
    private static final Duration IN_SYNC_WITHIN = Duration.ofSeconds(30);

    private static int masterPort;
    private static int replicaPort;
    private static Process master;
    private static Process replica;
    /** Where the servers write: a replica's full sync writes the master's RDB file to its directory. */
    private static Path directory;

    @Override
    public Map<String, String> start() {
        try {
            directory = Files.createTempDirectory("private-redis-with-replica-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        masterPort = ReservedPorts.next();
        replicaPort = ReservedPorts.next();
        master = launch(masterPort);
        replica = launch(replicaPort, "--replicaof", "127.0.0.1", String.valueOf(masterPort));
        awaitInSync(replicaPort);
        return Map.of("quarkus.redis.hosts", "redis://127.0.0.1:" + masterPort);
    }

    @Override
    public void stop() {
        for (Process server : List.of(master, replica)) {
            if (server.isAlive()) {
                signal("CONT", server);
            }
            server.destroy();
            try {
                server.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public int order() {
        return 1;
    }

    /** The replica stops taking the master's writes (SIGSTOP), as when its link breaks: the master goes on alone. */
    public static void cutOffReplica() {
        signal("STOP", replica);
    }

    /**
     * The master dies (kill -9) with the writes its replica never got, and the replica is promoted in its
     * place: the master's address then serves the replica's data, and nothing else. Afterwards the old
     * master's address has a replica again, in sync.
     */
    public static void failOverToReplica() {
        master.destroyForcibly();
        try {
            master.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        signal("CONT", replica);
        Resp.command(replicaPort, "REPLICAOF", "NO", "ONE");
        // The app knows one address: a server there copies the promoted replica whole, then takes over as master.
        master = launch(masterPort, "--replicaof", "127.0.0.1", String.valueOf(replicaPort));
        awaitInSync(masterPort);
        Resp.command(masterPort, "REPLICAOF", "NO", "ONE");
        Resp.command(replicaPort, "REPLICAOF", "127.0.0.1", String.valueOf(masterPort));
        awaitInSync(replicaPort);
    }

    private static Process launch(int port, String... arguments) {
        Path dir = directory.resolve(String.valueOf(port));
        dir.toFile().mkdirs();
        List<String> command = new ArrayList<>(List.of(EmbeddedServers.redisServerCommand(), "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString()));
        command.addAll(List.of(arguments));
        try {
            Process server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            await().atMost(STARTED_WITHIN).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() -> "PONG".equals(Resp.command(port, "PING")));
            return server;
        } catch (IOException e) {
            throw new IllegalStateException("Cannot start a private redis-server", e);
        }
    }

    private static void awaitInSync(int replica) {
        await().atMost(IN_SYNC_WITHIN).pollInterval(Duration.ofMillis(50)).until(
                () -> "up".equals(Resp.info(replica, "replication", "master_link_status"))
                        && "0".equals(Resp.info(replica, "replication", "master_sync_in_progress")));
    }

    private static void signal(String signal, Process server) {
        try {
            new ProcessBuilder("kill", "-" + signal, String.valueOf(server.pid())).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot signal redis-server " + server.pid(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
