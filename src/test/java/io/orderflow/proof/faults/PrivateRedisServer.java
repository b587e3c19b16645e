package io.orderflow.proof.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.orderflow.proof.faults.Processes.Binaries;
import io.orderflow.shared.embedded.EmbeddedServers;
import io.orderflow.support.ReservedPorts;
import io.orderflow.support.Resp;

/**
 * A redis-server of the proof's own on a free port, keeping nothing on disk, so that a restart brings
 * it back empty; the machine's shared Redis is never touched. It runs the machine's redis-server
 * where there is one, else the one embedded-redis ships, and needs no redis-cli.
 */
final class PrivateRedisServer implements AutoCloseable {

    private final String executable;
    private final int port;
    private Process server;

    private PrivateRedisServer(String executable, int port) {
        this.executable = executable;
        this.port = port;
    }

    static PrivateRedisServer start() {
        return start(Binaries.chosen());
    }

    static PrivateRedisServer start(Binaries binaries) {
        String executable = binaries == Binaries.EMBEDDED ? EmbeddedServers.bundledRedisServerCommand() : EmbeddedServers.redisServerCommand();
        PrivateRedisServer redis = new PrivateRedisServer(executable, ReservedPorts.next());
        redis.launch();
        return redis;
    }

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** SHUTDOWN NOSAVE: every connection is cut and the data is gone. */
    void shutdownNoSave() {
        try {
            command("SHUTDOWN", "NOSAVE");
        } catch (UncheckedIOException expected) {
            // the shutdown may reset the connection instead of closing it
        }
        awaitExit();
    }

    /** Starts an empty server again on the same port. */
    void launch() {
        try {
            server = Processes.yielding(executable, "--port", String.valueOf(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + executable, e);
        }
        Processes.require(Duration.ofSeconds(10), "redis-server accepts connections", () -> Processes.listening(port));
    }

    /** CLIENT PAUSE for every client: commands queue up until it ends, while leases run on Redis's clock. */
    void pauseAllClients(long millis) {
        command("CLIENT", "PAUSE", String.valueOf(millis), "ALL");
    }

    /** Returns once Redis answers a PING again: during CLIENT PAUSE ALL the PING waits with everyone else. */
    void awaitAnswering() {
        command("PING");
    }

    /** Sends one command on a connection of its own and returns its answer ({@link Resp#command}); an error answer fails. */
    Object command(String... parts) {
        return Resp.command(port, parts);
    }

    private void awaitExit() {
        try {
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-server did not exit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        if (server != null && server.isAlive()) {
            server.destroy();
            awaitExit();
        }
    }
}
