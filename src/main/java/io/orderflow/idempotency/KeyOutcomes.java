package io.orderflow.idempotency;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** Counts what claiming a key found: {@code orders_idempotency_requests_total{outcome}}. */
@ApplicationScoped
class KeyOutcomes {

    private final Map<KeyClaim.Outcome, Counter> counters = new EnumMap<>(KeyClaim.Outcome.class);

    KeyOutcomes(MeterRegistry metrics) {
        for (KeyClaim.Outcome outcome : KeyClaim.Outcome.values()) {
            counters.put(outcome, metrics.counter("orders.idempotency.requests", "outcome",
                    outcome.name().toLowerCase(Locale.ROOT).replace('_', '-')));
        }
    }

    void count(KeyClaim.Outcome outcome) {
        counters.get(outcome).increment();
    }
}
