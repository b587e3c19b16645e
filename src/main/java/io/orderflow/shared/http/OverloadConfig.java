package io.orderflow.shared.http;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How many requests the database-bound endpoints serve at once ({@link LoadShedder}). The limit moves between its
 * bounds with the latency it sees (Netflix's Vegas: down while answers queue, up while they do not); requests past it
 * wait a little for a place, and past that are refused with 503.
 */
@ConfigMapping(prefix = "orders.overload")
public interface OverloadConfig {

    /** Whether requests past the limit are held back at all; without it every request queues for a connection. */
    @WithDefault("true")
    boolean enabled();

    /** Requests served at once when the app starts; the pool of database connections (32) is what they share. */
    @WithDefault("32")
    int initialLimit();

    /**
     * The limit never falls below this, however slow answers get: the concurrency of a normal busy moment (16 clients at
     * once) is served, not shed.
     */
    @WithDefault("16")
    int minLimit();

    /** The limit never rises above this. */
    @WithDefault("64")
    int maxLimit();

    /**
     * Requests that may wait for a place at once; one more is refused at once. A short line: past capacity it stays full,
     * so what waits in it waits about a sixteenth of the limit's time, and the rest is refused without waiting.
     */
    @WithDefault("16")
    int maxWaiting();

    /** How long a request waits for a place before it is refused: about one answer's time at capacity, so a burst passes. */
    @WithDefault("100MS")
    Duration maxWait();

    /** What a refused request is told to wait before it tries again (Retry-After, in whole seconds). */
    @WithDefault("1S")
    Duration retryAfter();
}
