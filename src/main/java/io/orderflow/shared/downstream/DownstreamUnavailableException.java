package io.orderflow.shared.downstream;

import java.time.Duration;

/** A provider failed without saying that it did nothing (409, 429, 5xx, 408 ...): worth retrying with the same key, after {@link #retryAfter()} when it said so. */
public class DownstreamUnavailableException extends RuntimeException {

    private final int status;
    private final Duration retryAfter;

    public DownstreamUnavailableException(int status, Duration retryAfter) {
        this("The provider answered " + status, status, retryAfter);
    }

    private DownstreamUnavailableException(String message, int status, Duration retryAfter) {
        super(message, null, false, false);
        this.status = status;
        this.retryAfter = retryAfter;
    }

    /** An answer that could not be read: it says nothing certain of what the provider did. */
    public static DownstreamUnavailableException unreadable(int status) {
        return new DownstreamUnavailableException("The provider's answer (" + status + ") could not be read", status, null);
    }

    public int status() {
        return status;
    }

    /** The provider's Retry-After, or null. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
