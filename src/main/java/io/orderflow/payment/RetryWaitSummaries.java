package io.orderflow.payment;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.faulttolerance.Retry;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.shared.metrics.Counters;
import io.quarkus.runtime.Startup;

/**
 * {@code orders_payments_retry_wait{retry,reason}}: each wait before a retry of a call to the payment provider, in ms,
 * by the retry it precedes (1 for the first) and why it is that long. Every retry the gateway's {@code @Retry} allows,
 * with every reason, is there from the start.
 */
@Startup
@ApplicationScoped
class RetryWaitSummaries {

    static final String NAME = "orders.payments.retry.wait";

    private final MeterRegistry registry;
    /** By retry, the first at 0. */
    private final List<Map<RetryWaits.Reason, DistributionSummary>> byRetry = new ArrayList<>();

    RetryWaitSummaries(MeterRegistry registry) {
        this.registry = registry;
        int retries = ConfigProvider.getConfig().getOptionalValue(RetryAfterBackoff.OVERRIDES + "maxRetries", Integer.class)
                .orElse(PaymentGateway.class.getAnnotation(Retry.class).maxRetries());
        for (int retry = 1; retry <= retries; retry++) {
            Map<RetryWaits.Reason, DistributionSummary> byReason = new EnumMap<>(RetryWaits.Reason.class);
            for (RetryWaits.Reason reason : RetryWaits.Reason.values()) {
                byReason.put(reason, summary(retry, reason));
            }
            byRetry.add(byReason);
        }
    }

    /** Records the wait before retry {@code retry} (1 for the first). */
    void record(int retry, RetryWaits.Reason reason, long millis) {
        DistributionSummary summary = retry <= byRetry.size() ? byRetry.get(retry - 1).get(reason) : summary(retry, reason);
        summary.record(millis);
    }

    private DistributionSummary summary(int retry, RetryWaits.Reason reason) {
        return DistributionSummary.builder(NAME).description("Waits before a retry of a call to the payment provider, in ms")
                .tag("retry", String.valueOf(retry)).tag("reason", Counters.label(reason)).register(registry);
    }
}
