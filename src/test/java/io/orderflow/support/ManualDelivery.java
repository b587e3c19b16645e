package io.orderflow.support;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Nothing delivers on its own: the outbox relay and the order event consumer are stopped, so a test
 * drives them itself. Relays take small batches, and the order event stream keeps about
 * {@value #STREAM_MAX_LENGTH} entries.
 */
public class ManualDelivery implements QuarkusTestProfile {

    public static final long STREAM_MAX_LENGTH = 1000;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "orders.outbox.poll-interval", "off",
                "orders.outbox.batch-size", "3",
                "orders.events.poll-interval", "off",
                "orders.events.max-length", Long.toString(STREAM_MAX_LENGTH));
    }
}
