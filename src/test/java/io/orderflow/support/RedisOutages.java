package io.orderflow.support;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * For tests that stop their {@link PrivateRedis}: the outbox retries soon and often (the first retry
 * after 20 ms, none more than 200 ms after the one before) within a budget of {@value #MAX_ATTEMPTS}
 * attempts, so that an outage outlasts the budget within a test. The tests of one profile share one
 * app and one private Redis; each leaves Redis running.
 */
public class RedisOutages implements QuarkusTestProfile {

    public static final int MAX_ATTEMPTS = 3;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "orders.outbox.max-attempts", Integer.toString(MAX_ATTEMPTS),
                "orders.outbox.base-delay", "20ms",
                "orders.outbox.max-delay", "200ms",
                "orders.outbox.poll-interval", "100ms");
    }
}
