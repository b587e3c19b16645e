package io.orderflow.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.orderflow.shared.embedded.EmbeddedServers;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A Redis server of the test's own, which the test may stop and start again; the shared Redis is
 * never touched. Started after {@link TestServers}, so its address is the one the app uses. Where the
 * machine has no redis-server, it runs the one embedded-redis ships.
 */
public class PrivateRedis implements QuarkusTestResourceLifecycleManager {

    private static int port;
    private static Process server;

    @Override
    public Map<String, String> start() {
        port = ReservedPorts.next();
        startServer();
        return Map.of("quarkus.redis.hosts", "redis://127.0.0.1:" + port);
    }

    @Override
    public void stop() {
        stopServer();
    }

    @Override
    public int order() {
        return 1;
    }

    /** Starts an empty server on the same port: what a restart without persistence looks like. */
    public static void startServer() {
        try {
            server = new ProcessBuilder(EmbeddedServers.redisServerCommand(), "--port", String.valueOf(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot start a private redis-server", e);
        }
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(PrivateRedis::accepts);
    }

    public static void stopServer() {
        if (server != null && server.isAlive()) {
            server.destroy();
            try {
                server.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static boolean accepts() {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
