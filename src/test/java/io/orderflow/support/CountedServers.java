package io.orderflow.support;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * {@link TestServers} reached through {@link RoundTrips} proxies, with the providers in a process of their own
 * ({@link FakeProviders}, as in production) and the app's pollers off, so that the trips counted while a request runs
 * are the request's own.
 */
public class CountedServers extends TestServers {

    private static RoundTrips postgres;
    private static RoundTrips redis;
    private final FakeProviders providers = new FakeProviders();

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>(super.start());
        config.putAll(providers.start());
        URI server = URI.create(POSTGRES_URL.substring("jdbc:".length()));
        postgres = RoundTrips.to(RoundTrips.Protocol.POSTGRES, server.getPort());
        redis = RoundTrips.to(RoundTrips.Protocol.REDIS, REDIS_PORT);
        config.put("quarkus.datasource.jdbc.url",
                "jdbc:postgresql://127.0.0.1:" + postgres.port() + server.getPath() + "?currentSchema=" + schema());
        config.put("quarkus.redis.hosts", "redis://127.0.0.1:" + redis.port());
        // Nothing in the background: the outbox's relay, the event readers' polls and the deadlines' watch.
        config.put("quarkus.scheduler.enabled", "false");
        config.put("orders.outbox.poll-interval", "off");
        return config;
    }

    @Override
    public void stop() {
        postgres.close();
        redis.close();
        providers.stop();
        super.stop();
    }

    public static RoundTrips postgres() {
        return postgres;
    }

    public static RoundTrips redis() {
        return redis;
    }
}
