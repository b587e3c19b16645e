package io.orderflow.token;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "orders.tokens")
public interface TokenConfig {

    /** How long an issued order token may be used. */
    @WithDefault("5M")
    Duration ttl();

    /** How many unused, unexpired tokens one customer may hold (env {@code ORDERS_TOKENS_MAX_OUTSTANDING}). */
    @WithDefault("20")
    int maxOutstanding();

    /**
     * How long a request that consumed a token owns it. A request that crashed gives its token
     * back when this runs out; it must exceed the time an order takes to be stored.
     */
    @WithDefault("15S")
    Duration lease();

    /** How long a request waits for another request that is using the same token, before 409. */
    @WithDefault("2S")
    Duration inFlightWait();
}
