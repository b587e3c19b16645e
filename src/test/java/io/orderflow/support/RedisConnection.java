package io.orderflow.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Response;

/** A Redis connection outside the application, for preparing and cleaning up a test run's keys. */
public final class RedisConnection implements AutoCloseable {

    private final Vertx vertx = Vertx.vertx();
    private final Redis client;
    private final RedisAPI api;

    public RedisConnection(String host, int port) {
        this.client = Redis.createClient(vertx, "redis://" + host + ":" + port);
        this.api = RedisAPI.api(client);
    }

    /** Deletes every key starting with the prefix (SCAN, never KEYS or FLUSH). */
    public void deleteByPrefix(String prefix) {
        String cursor = "0";
        do {
            Response page = await(api.scan(List.of(cursor, "MATCH", escape(prefix) + "*", "COUNT", "1000")));
            cursor = page.get(0).toString();
            List<String> keys = new ArrayList<>();
            page.get(1).forEach(key -> keys.add(key.toString()));
            if (!keys.isEmpty()) {
                await(api.del(keys));
            }
        } while (!"0".equals(cursor));
    }

    private static String escape(String prefix) {
        return prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Redis did not answer", e);
        }
    }

    @Override
    public void close() {
        client.close();
        vertx.close();
    }
}
