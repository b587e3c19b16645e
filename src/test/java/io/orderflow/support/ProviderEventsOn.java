package io.orderflow.support;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The sandbox provider sends its event notifications to the app, as in dev and demo, and sends each
 * twice, up to 300 ms apart, so that they arrive repeated and out of order.
 */
public class ProviderEventsOn implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("orders.sandbox.events.url", "http://127.0.0.1:${quarkus.http.test-port}/payments/provider-events",
                "orders.sandbox.events.duplicate-rate", "1",
                "orders.sandbox.events.jitter", "300ms");
    }
}
