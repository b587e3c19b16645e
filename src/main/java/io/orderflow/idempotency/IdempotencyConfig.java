package io.orderflow.idempotency;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "orders.idempotency")
public interface IdempotencyConfig {

    /**
     * How long a request owns the Idempotency-Key it claimed. If it crashes, a retry may run once
     * this has passed; it must exceed the longest request (downstream retries included).
     */
    @WithDefault("30S")
    Duration lease();

    /**
     * How long a final answer is kept for replay, in Redis and in PostgreSQL; the retention job deletes the
     * rows past it ({@code orders.retention.max-age.idempotency-keys}).
     */
    @WithDefault("24H")
    Duration retention();
}
