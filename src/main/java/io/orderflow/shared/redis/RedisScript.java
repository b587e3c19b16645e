package io.orderflow.shared.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.orderflow.shared.Hashing;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * A Lua script from {@code src/main/resources/redis}, read once with the functions it calls and run
 * by its SHA-1 with EVALSHA.
 * Redis forgets its script cache on restart, failover or SCRIPT FLUSH; then the script is sent once
 * more with EVAL, which also caches it again.
 */
public final class RedisScript {

    /** As long as Quarkus's own blocking Redis calls may take (quarkus.redis.timeout). */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final String name;
    private final String source;
    private final String sha1;

    private RedisScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha1 = Hashing.sha1Hex(source);
    }

    /** The script {@code redis/NAME.lua}, after the functions it calls, each from {@code redis/functions/FUNCTION.lua}. */
    public static RedisScript load(String name, String... functions) {
        StringBuilder source = new StringBuilder();
        for (String function : functions) {
            source.append(read("redis/functions/" + function + ".lua")).append('\n');
        }
        return new RedisScript(name, source.append(read("redis/" + name + ".lua")).toString());
    }

    private static String read(String resource) {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Missing Redis script " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Response run(RedisDataSource redis, List<String> keys, Object... args) {
        try {
            return redis.execute("EVALSHA", arguments(sha1, keys, args));
        } catch (RuntimeException e) {
            if (!RedisErrors.mentions(e, "NOSCRIPT")) {
                throw e;
            }
            return redis.execute("EVAL", arguments(source, keys, args));
        }
    }

    /** The same, without blocking: for callers on an event loop. It fails after {@link #TIMEOUT}, as a blocking call would. */
    public Uni<Response> run(ReactiveRedisDataSource redis, List<String> keys, Object... args) {
        return redis.execute("EVALSHA", arguments(sha1, keys, args))
                .onFailure(e -> RedisErrors.mentions(e, "NOSCRIPT"))
                .recoverWithUni(() -> redis.execute("EVAL", arguments(source, keys, args)))
                .ifNoItem().after(TIMEOUT).fail();
    }

    public String name() {
        return name;
    }

    private static String[] arguments(String script, List<String> keys, Object[] args) {
        List<String> all = new ArrayList<>(2 + keys.size() + args.length);
        all.add(script);
        all.add(Integer.toString(keys.size()));
        all.addAll(keys);
        for (Object arg : args) {
            all.add(String.valueOf(arg));
        }
        return all.toArray(String[]::new);
    }
}
