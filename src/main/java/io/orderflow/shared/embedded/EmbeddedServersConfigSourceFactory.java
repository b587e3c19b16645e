package io.orderflow.shared.embedded;

import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;

/**
 * In dev mode and tests, points the datasource and the Redis client at embedded servers when the
 * configured ones do not answer (see {@link EmbeddedMode}). Config source factories run while the
 * runtime configuration is built, before the datasource and the Redis client read it. Every other
 * profile, and any build without the embedded libraries (the packaged app), gets nothing from here.
 */
public class EmbeddedServersConfigSourceFactory implements ConfigSourceFactory {

    // Above environment variables (300), so a configured address that does not answer is replaced;
    // below system properties and test resources (400 and up), which choose for themselves.
    private static final int ORDINAL = 350;
    private static final String JDBC_URL = "quarkus.datasource.jdbc.url";
    private static final String REDIS_HOSTS = "quarkus.redis.hosts";
    // Dev mode keeps its orders across restarts; tests start from an empty server every run.
    private static final Path DEV_DATA = Path.of("target", "embedded-postgres");

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        boolean dev = context.getProfiles().contains("dev");
        boolean test = context.getProfiles().contains("test");
        if (!(dev || test) || !librariesPresent()) {
            return List.of();
        }
        EmbeddedMode mode = EmbeddedMode.of(value(context, "orders.embedded"));
        Map<String, String> properties = new HashMap<>();
        String jdbcUrl = value(context, JDBC_URL);
        if (jdbcUrl != null) {
            URI postgres = URI.create(jdbcUrl.substring("jdbc:".length()));
            String reason = mode.reasonToReplace(postgres, 5432);
            if (reason != null) {
                int port = EmbeddedServers.postgres(dev ? DEV_DATA : null, reason);
                properties.put(JDBC_URL, EmbeddedServers.jdbcUrl(port, postgres.getRawQuery()));
                properties.put("quarkus.datasource.username", "postgres");
            }
        }
        String redisHosts = value(context, REDIS_HOSTS);
        if (redisHosts != null) {
            String reason = mode.reasonToReplace(URI.create(redisHosts.split(",")[0].trim()), 6379);
            if (reason != null) {
                properties.put(REDIS_HOSTS, "redis://127.0.0.1:" + EmbeddedServers.redis(reason));
            }
        }
        return List.of(new PropertiesConfigSource(properties, "embedded servers", ORDINAL));
    }

    private static String value(ConfigSourceContext context, String name) {
        ConfigValue value = context.getValue(name);
        return value == null ? null : value.getValue();
    }

    private static boolean librariesPresent() {
        try {
            ClassLoader loader = EmbeddedServersConfigSourceFactory.class.getClassLoader();
            Class.forName("io.zonky.test.db.postgres.embedded.EmbeddedPostgres", false, loader);
            Class.forName("redis.embedded.RedisServer", false, loader);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
