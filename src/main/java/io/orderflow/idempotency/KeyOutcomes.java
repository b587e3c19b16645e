package io.orderflow.idempotency;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.orderflow.shared.metrics.Counters;
import io.quarkus.runtime.Startup;

/** Counts what claiming a key found: {@code orders_idempotency_requests_total{outcome}}, every outcome at 0 from the start. */
@Startup
@ApplicationScoped
class KeyOutcomes {

    private final Counters<KeyClaim.Outcome> counters;

    KeyOutcomes(MeterRegistry metrics) {
        counters = Counters.of(metrics, "orders.idempotency.requests", "Requests with an Idempotency-Key, by what claiming the key found",
                Tags.empty(), "outcome", KeyClaim.Outcome.class);
    }

    void count(KeyClaim.Outcome outcome) {
        counters.increment(outcome);
    }
}
