package io.orderflow.support;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/** Nothing relays the outbox on its own, so a test drives the relays itself; they take small batches. */
public class ManualDelivery implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "orders.outbox.poll-interval", "off",
                "orders.outbox.batch-size", "3");
    }
}
