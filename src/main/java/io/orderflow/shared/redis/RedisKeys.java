package io.orderflow.shared.redis;

import jakarta.enterprise.context.ApplicationScoped;

import io.orderflow.shared.Hashing;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Names every Redis key of the service: {@code <prefix>{<tag>}:<name>}. The prefix lets several
 * deployments share one Redis; the hash tag keeps all keys one script touches in one cluster slot.
 */
@ApplicationScoped
public class RedisKeys {

    @ConfigMapping(prefix = "orders.redis")
    public interface Config {
        /** Starts every Redis key of this deployment (env {@code ORDERS_REDIS_KEY_PREFIX}). */
        @WithDefault("orders:")
        String keyPrefix();
    }

    private final String prefix;

    public RedisKeys(Config config) {
        this.prefix = config.keyPrefix();
    }

    /** A key in the slot of one principal, whose name is hashed so that any name makes a valid tag. */
    public String ofPrincipal(String principal, String name) {
        return of("p:" + Hashing.sha256Hex(principal).substring(0, 16), name);
    }

    /** A key in the slot of the tag, for keys that belong to no principal (e.g. the order event stream). */
    public String of(String tag, String name) {
        return prefix + "{" + tag + "}:" + name;
    }
}
