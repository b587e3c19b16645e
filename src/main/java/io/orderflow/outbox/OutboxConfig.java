package io.orderflow.outbox;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "orders.outbox")
public interface OutboxConfig {

    /**
     * How often the relay looks for due messages: retries, messages written by other instances, and
     * refunds and shipments; order events go out as soon as their transaction commits ({@code off}
     * stops the relay altogether, e.g. for maintenance).
     */
    @WithDefault("1S")
    String pollInterval();

    /** How many due messages one relay run takes: order events are published in one round trip per batch. */
    @WithDefault("50")
    int batchSize();

    /** Delay after the first failed attempt; it doubles with each further failure. */
    @WithDefault("1S")
    Duration baseDelay();

    /** The longest delay between two attempts; messages that are never given up are tried again at least this often. */
    @WithDefault("5M")
    Duration maxDelay();

    /**
     * Attempts after which a message is dead-lettered, for the kinds that may be given up (shipments, see
     * {@link OutboxHandler#mayGiveUp()}). Refunds and order events are never given up: they are retried for
     * as long as it takes.
     */
    @WithDefault("10")
    int maxAttempts();

    /**
     * How long a relay owns a message it took; renewed right before each attempt, so it must exceed the
     * longest single delivery (provider timeouts). A relay that died leaves its messages to another after this.
     */
    @WithDefault("1M")
    Duration lease();
}
