package io.orderflow.shared.downstream;

import java.time.Duration;

import io.quarkus.arc.Unremovable;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How calls to the providers are retried. Kept though nothing injects it: the backoff Fault Tolerance creates reads it. */
@Unremovable
@ConfigMapping(prefix = "orders.downstream")
public interface DownstreamConfig {

    /** The longest wait between two attempts, whether backed off or asked for by a provider's Retry-After. */
    @WithDefault("5S")
    Duration maxDelay();
}
