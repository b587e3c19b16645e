package io.orderflow.support;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import io.orderflow.shared.embedded.EmbeddedMode;
import io.orderflow.shared.embedded.EmbeddedServers;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Gives a test run its own PostgreSQL schema and Redis key prefix on the shared servers, and
 * removes both at the end; nothing else on those servers is touched. Where a configured server does
 * not answer, the run uses an embedded one started for it (see {@link EmbeddedMode}).
 */
public class TestServers implements QuarkusTestResourceLifecycleManager {

    private static final String CONFIGURED_POSTGRES_URL = env("TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test");
    private static final String CONFIGURED_REDIS_HOST = env("TEST_REDIS_HOST", "127.0.0.1");
    private static final int CONFIGURED_REDIS_PORT = Integer.parseInt(env("TEST_REDIS_PORT", "6379"));
    // Where the configured servers do not answer (or ORDERS_EMBEDDED=always), the run uses the embedded ones.
    private static final EmbeddedMode MODE = EmbeddedMode.of(System.getProperty("orders.embedded", System.getenv("ORDERS_EMBEDDED")));
    private static final String POSTGRES_REASON = MODE.reasonToReplace(URI.create(CONFIGURED_POSTGRES_URL.substring("jdbc:".length())), 5432);
    private static final String REDIS_REASON = MODE.reasonToReplace(URI.create("redis://" + CONFIGURED_REDIS_HOST + ":" + CONFIGURED_REDIS_PORT), 6379);

    public static final String POSTGRES_URL = POSTGRES_REASON == null ? CONFIGURED_POSTGRES_URL
            : EmbeddedServers.jdbcUrl(EmbeddedServers.postgres(null, POSTGRES_REASON), "");
    public static final String POSTGRES_USER = POSTGRES_REASON == null ? env("TEST_POSTGRES_USER", "root") : "postgres";
    public static final String REDIS_HOST = REDIS_REASON == null ? CONFIGURED_REDIS_HOST : "127.0.0.1";
    public static final int REDIS_PORT = REDIS_REASON == null ? CONFIGURED_REDIS_PORT : EmbeddedServers.redis(REDIS_REASON);

    private static String schema;
    private static String keyPrefix;

    @Override
    public Map<String, String> start() {
        String run = UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
        schema = "t_" + run;
        keyPrefix = "t_" + run + ":";
        execute("CREATE SCHEMA " + schema);
        NoDefaultFormType.install();
        return Map.of(
                "quarkus.datasource.jdbc.url", POSTGRES_URL + "?currentSchema=" + schema,
                "quarkus.datasource.username", POSTGRES_USER,
                "quarkus.flyway.schemas", schema,
                "quarkus.redis.hosts", "redis://" + REDIS_HOST + ":" + REDIS_PORT,
                "orders.redis.key-prefix", keyPrefix);
    }

    @Override
    public void stop() {
        execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        try (RedisConnection redis = new RedisConnection(REDIS_HOST, REDIS_PORT)) {
            redis.deleteByPrefix(keyPrefix);
        }
    }

    /** Whether this run uses the embedded PostgreSQL, the configured one not answering (or ORDERS_EMBEDDED=always). */
    public static boolean embeddedPostgres() {
        return POSTGRES_REASON != null;
    }

    public static boolean embeddedRedis() {
        return REDIS_REASON != null;
    }

    /** This run's schema, for tests that look at rows directly. */
    public static String schema() {
        return schema;
    }

    public static String keyPrefix() {
        return keyPrefix;
    }

    public static Connection connect() throws SQLException {
        Connection connection = DriverManager.getConnection(POSTGRES_URL + "?currentSchema=" + schema, POSTGRES_USER, "");
        connection.setAutoCommit(true);
        return connection;
    }

    private static void execute(String sql) {
        try (Connection connection = DriverManager.getConnection(POSTGRES_URL, POSTGRES_USER, "");
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot prepare the test schema: " + sql, e);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
