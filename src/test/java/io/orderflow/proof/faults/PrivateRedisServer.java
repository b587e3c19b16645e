package io.orderflow.proof.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server of the proof's own on a free port, keeping nothing on disk, so that a restart brings
 * it back empty; the machine's shared Redis is never touched.
 */
final class PrivateRedisServer implements AutoCloseable {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

    private final int port;
    private Process server;

    private PrivateRedisServer(int port) {
        this.port = port;
    }

    static PrivateRedisServer start() {
        PrivateRedisServer redis = new PrivateRedisServer(Processes.freePort());
        redis.launch();
        return redis;
    }

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** SHUTDOWN NOSAVE: every connection is cut and the data is gone. */
    void shutdownNoSave() {
        try {
            cli("SHUTDOWN", "NOSAVE");
        } catch (IllegalStateException expected) {
            // redis-cli reports the connection the shutdown closed as an error
        }
        awaitExit();
    }

    /** Starts an empty server again on the same port. */
    void launch() {
        try {
            server = new ProcessBuilder("redis-server", "--port", String.valueOf(port), "--bind", "127.0.0.1", "--save", "",
                    "--appendonly", "no").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start redis-server", e);
        }
        Processes.require(Duration.ofSeconds(10), "redis-server accepts connections", this::accepts);
    }

    /** CLIENT PAUSE for every client: commands queue up until it ends, while leases run on Redis's clock. */
    void pauseAllClients(long millis) {
        cli("CLIENT", "PAUSE", String.valueOf(millis), "ALL");
    }

    /** Returns once Redis answers a PING again: during CLIENT PAUSE ALL the PING waits with everyone else. */
    void awaitAnswering() {
        cli("PING");
    }

    private void cli(String... command) {
        String[] full = new String[command.length + 4];
        full[0] = "redis-cli";
        full[1] = "-p";
        full[2] = String.valueOf(port);
        full[3] = "--no-raw";
        System.arraycopy(command, 0, full, 4, command.length);
        String answer = Processes.run(COMMAND_TIMEOUT, full);
        if (answer.startsWith("(error)") || answer.contains("Could not connect")) {
            throw new IllegalStateException(String.join(" ", command) + ": " + answer);
        }
    }

    private boolean accepts() {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
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
