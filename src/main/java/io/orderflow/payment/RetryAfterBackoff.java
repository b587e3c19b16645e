package io.orderflow.payment;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.faulttolerance.Retry;

import io.orderflow.shared.downstream.DownstreamConfig;
import io.orderflow.shared.downstream.DownstreamUnavailableException;
import io.quarkus.arc.Arc;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.faulttolerance.api.CustomBackoffStrategy;

/**
 * The waits SmallRye Fault Tolerance takes between attempts at the payment provider ({@link RetryWaits}):
 * exponential from {@code @Retry(delay)} up to {@code orders.downstream.max-delay}, a provider's
 * Retry-After obeyed within that cap, and never beyond what is left of the call's budget
 * ({@code @Retry(maxDuration)}): Fault Tolerance checks the budget only before an attempt, so an uncapped
 * wait would hold the request past its leases. Each wait is recorded in {@link RetryWaitSummaries}. One
 * instance per call.
 */
public class RetryAfterBackoff implements CustomBackoffStrategy {

    /** Where MicroProfile config overrides the gateway's {@code @Retry}. */
    static final String OVERRIDES = PaymentGateway.class.getName() + "/Retry/";

    private final AtomicInteger retries = new AtomicInteger();
    private final long started = System.nanoTime();
    private long initialDelay;
    private RetryWaits waits;

    @Override
    public void init(long initialDelayInMillis) {
        initialDelay = Math.max(1, initialDelayInMillis);
    }

    /** Worked out at the first retry: most calls never retry, and reading the budget's settings costs every call otherwise. */
    private RetryWaits waits() {
        if (waits == null) {
            Config config = ConfigProvider.getConfig();
            Retry declared = PaymentGateway.class.getAnnotation(Retry.class);
            long budget = Duration.of(config.getOptionalValue(OVERRIDES + "maxDuration", Long.class).orElse(declared.maxDuration()),
                    config.getOptionalValue(OVERRIDES + "durationUnit", ChronoUnit.class).orElse(declared.durationUnit())).toMillis();
            waits = new RetryWaits(initialDelay, config.unwrap(SmallRyeConfig.class).getConfigMapping(DownstreamConfig.class).maxDelay().toMillis(),
                    budget);
        }
        return waits;
    }

    @Override
    public long nextDelayInMillis(Throwable exception) {
        int retry = retries.getAndIncrement();
        Duration retryAfter = exception instanceof DownstreamUnavailableException unavailable ? unavailable.retryAfter() : null;
        RetryWaits.Wait wait = waits().next(retry, retryAfter, Duration.ofNanos(System.nanoTime() - started).toMillis());
        // Looked up only when a call retries: most calls never do.
        Arc.container().instance(RetryWaitSummaries.class).get().record(retry + 1, wait.reason(), wait.millis());
        return wait.millis();
    }
}
