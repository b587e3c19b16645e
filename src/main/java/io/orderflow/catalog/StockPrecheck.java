package io.orderflow.catalog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.orderflow.shared.metrics.Counters;
import io.orderflow.shared.redis.RedisKeys;
import io.orderflow.shared.redis.RedisScript;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.value.SetArgs;
import io.quarkus.runtime.Startup;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * An optional pre-check of stock in Redis, in front of PostgreSQL: a counter of available stock per
 * product (in its own cluster slot), taken atomically by a Lua script before the order's transaction,
 * so that in a flash sale the buyers who cannot be served are told at once, without a database round
 * trip or a wait for the product's row lock. PostgreSQL's guarded UPDATE still decides every order
 * that passes. A missing counter is refilled from PostgreSQL and lives for {@code ttl}, so a counter
 * that is wrong (lost in a failover, or behind a cancel) turns buyers away for at most that long; it
 * can never oversell. Redis failing only turns the pre-check off for that order.
 */
@Startup
@ApplicationScoped
public class StockPrecheck {

    @ConfigMapping(prefix = "orders.stock.precheck")
    public interface Config {

        /** Whether orders are pre-checked in Redis. */
        @WithDefault("false")
        boolean enabled();

        /** How long a counter lives before it is refilled from PostgreSQL. */
        @WithDefault("1S")
        Duration ttl();
    }

    /** What pre-checking an order came to: {@code orders_stock_precheck_total{outcome}}. */
    private enum Outcome {
        TAKEN,
        /** Answered out-of-stock. */
        SHORT,
        /** A product had no counter: PostgreSQL was asked. */
        UNCOUNTED,
        /** Redis failed. */
        SKIPPED
    }

    /** What one order took from the counters, and the products that had none. */
    public record Hold(Map<String, Integer> taken, Set<String> uncounted) {

        public static final Hold NONE = new Hold(Map.of(), Set.of());
    }

    private static final Logger LOG = Logger.getLogger(StockPrecheck.class);
    private static final RedisScript TAKE = RedisScript.load("stock-take");
    private static final RedisScript GIVE_BACK = RedisScript.load("stock-give-back");
    private static final long NO_COUNTER = -1;
    private static final long TAKEN = -2;

    private final RedisDataSource redis;
    private final RedisKeys keys;
    private final Stock stock;
    private final Config config;
    private final Counters<Outcome> outcomes;

    public StockPrecheck(RedisDataSource redis, RedisKeys keys, Stock stock, Config config, MeterRegistry metrics) {
        this.redis = redis;
        this.keys = keys;
        this.stock = stock;
        this.config = config;
        this.outcomes = Counters.of(metrics, "orders.stock.precheck", "Orders pre-checked in Redis, by outcome", Tags.empty(), "outcome",
                Outcome.class);
    }

    /** Takes the order's quantities from the counters; a short one answers 409 {@code out-of-stock} at once. */
    public Hold take(List<StockLine> lines) {
        if (!config.enabled()) {
            return Hold.NONE;
        }
        Map<String, Integer> taken = new LinkedHashMap<>();
        Set<String> uncounted = new TreeSet<>();
        List<Stock.Shortage> shortages = new ArrayList<>();
        try {
            Stock.merged(lines).forEach((sku, quantity) -> {
                long answer = TAKE.run(redis, List.of(counter(sku)), quantity).toLong();
                if (answer == TAKEN) {
                    taken.put(sku, quantity);
                } else if (answer == NO_COUNTER) {
                    uncounted.add(sku);
                } else {
                    shortages.add(new Stock.Shortage(sku, quantity, (int) answer));
                }
            });
        } catch (RuntimeException redisFailed) {
            LOG.debugf("Stock pre-check skipped, Redis failed: %s", redisFailed.toString());
            settle(new Hold(taken, Set.of()), false);
            outcomes.increment(Outcome.SKIPPED);
            return Hold.NONE;
        }
        if (!shortages.isEmpty()) {
            settle(new Hold(taken, Set.of()), false);
            outcomes.increment(Outcome.SHORT);
            throw Stock.outOfStock(shortages);
        }
        outcomes.increment(uncounted.isEmpty() ? Outcome.TAKEN : Outcome.UNCOUNTED);
        return new Hold(taken, uncounted);
    }

    /** After the order's transaction: gives back what an order that was not placed took, and fills missing counters. */
    public void settle(Hold hold, boolean placed) {
        try {
            if (!placed) {
                hold.taken().forEach((sku, quantity) -> GIVE_BACK.run(redis, List.of(counter(sku)), quantity));
            }
            if (!hold.uncounted().isEmpty()) {
                stock.available(hold.uncounted()).forEach((sku, available) -> redis.value(Integer.class)
                        .set(counter(sku), available, new SetArgs().px(config.ttl()).nx()));
            }
        } catch (RuntimeException e) {
            // The counters are a hint that expires: PostgreSQL stays right.
            LOG.debugf("Stock counters not settled: %s", e.toString());
        }
    }

    private String counter(String sku) {
        return keys.of("sku:" + sku, "available");
    }
}
