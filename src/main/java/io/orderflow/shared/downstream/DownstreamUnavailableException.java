package io.orderflow.shared.downstream;

import java.time.Duration;

/** A provider failed without saying that it did nothing (409, 429, 5xx, 408 ...): worth retrying with the same key, after {@link #retryAfter()} when it said so. */
public class DownstreamUnavailableException extends RuntimeException {

    private final int status;
    private final Duration retryAfter;

    public DownstreamUnavailableException(int status, Duration retryAfter) {
        super("The provider answered " + status, null, false, false);
        this.status = status;
        this.retryAfter = retryAfter;
    }

    public int status() {
        return status;
    }

    /** The provider's Retry-After, or null. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
