package io.orderflow.payment;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.faulttolerance.Retry;

import io.orderflow.shared.downstream.Backoff;
import io.orderflow.shared.downstream.DownstreamConfig;
import io.orderflow.shared.downstream.DownstreamUnavailableException;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.faulttolerance.api.CustomBackoffStrategy;

/**
 * The waits SmallRye Fault Tolerance takes between attempts at the payment provider: exponential from
 * {@code @Retry(delay)}, doubled per attempt up to {@code orders.downstream.max-delay}, with "equal
 * jitter" (between half and all of that). A provider's Retry-After is obeyed, but never beyond
 * max-delay nor beyond what is left of the call's budget ({@code @Retry(maxDuration)}): Fault Tolerance
 * checks the budget only before an attempt, so an uncapped wait would hold the request past its leases.
 * One instance per call.
 */
public class RetryAfterBackoff implements CustomBackoffStrategy {

    private static final String OVERRIDES = PaymentGateway.class.getName() + "/Retry/";

    private final AtomicInteger retries = new AtomicInteger();
    private final long started = System.nanoTime();
    private long initialDelay;
    private long maxDelay;
    private long budget;

    @Override
    public void init(long initialDelayInMillis) {
        Config config = ConfigProvider.getConfig();
        Retry declared = PaymentGateway.class.getAnnotation(Retry.class);
        this.initialDelay = Math.max(1, initialDelayInMillis);
        this.maxDelay = config.unwrap(SmallRyeConfig.class).getConfigMapping(DownstreamConfig.class).maxDelay().toMillis();
        this.budget = Duration.of(config.getOptionalValue(OVERRIDES + "maxDuration", Long.class).orElse(declared.maxDuration()),
                config.getOptionalValue(OVERRIDES + "durationUnit", ChronoUnit.class).orElse(declared.durationUnit())).toMillis();
    }

    @Override
    public long nextDelayInMillis(Throwable exception) {
        int retry = retries.getAndIncrement();
        long delay = exception instanceof DownstreamUnavailableException unavailable && unavailable.retryAfter() != null
                ? Math.min(unavailable.retryAfter().toMillis(), maxDelay)
                : Backoff.equalJitter(initialDelay, maxDelay, retry);
        long remaining = budget - Duration.ofNanos(System.nanoTime() - started).toMillis();
        return Math.max(0, Math.min(delay, remaining));
    }
}
