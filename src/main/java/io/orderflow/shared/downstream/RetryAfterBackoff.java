package io.orderflow.shared.downstream;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.config.ConfigProvider;

import io.smallrye.faulttolerance.api.CustomBackoffStrategy;

/**
 * The delays SmallRye Fault Tolerance waits between attempts at a provider: exponential from
 * {@code @Retry(delay)}, doubled per attempt up to {@code orders.downstream.max-delay}, with "equal
 * jitter" (between half and all of that); a provider's Retry-After, when it gave one, wins.
 */
public class RetryAfterBackoff implements CustomBackoffStrategy {

    private long initialDelay;
    private long maxDelay;
    private final AtomicInteger retries = new AtomicInteger();

    @Override
    public void init(long initialDelayInMillis) {
        this.initialDelay = Math.max(1, initialDelayInMillis);
        this.maxDelay = ConfigProvider.getConfig().getOptionalValue("orders.downstream.max-delay", Duration.class)
                .map(Duration::toMillis).orElse(5_000L);
    }

    @Override
    public long nextDelayInMillis(Throwable exception) {
        int retry = retries.getAndIncrement();
        if (exception instanceof DownstreamUnavailableException unavailable && unavailable.retryAfter() != null) {
            return unavailable.retryAfter().toMillis();
        }
        return Backoff.equalJitter(initialDelay, maxDelay, retry);
    }
}
