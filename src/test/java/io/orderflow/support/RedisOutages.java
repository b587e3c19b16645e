package io.orderflow.support;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * For tests that stop their {@link PrivateRedis}: the outbox retries soon and often (the first retry
 * after 20 ms, none more than 200 ms after the one before) within a budget of {@value #MAX_ATTEMPTS}
 * attempts, so that an outage outlasts the budget within a test. An address is refused for a user
 * after {@value #LOGIN_FAILURES_PER_USER_AND_ADDRESS} wrong passwords. The tests of one profile share
 * one app and one private Redis; each leaves Redis running.
 */
public class RedisOutages implements QuarkusTestProfile {

    public static final int MAX_ATTEMPTS = 3;
    public static final int LOGIN_FAILURES_PER_USER_AND_ADDRESS = 3;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "orders.outbox.max-attempts", Integer.toString(MAX_ATTEMPTS),
                "orders.outbox.base-delay", "20ms",
                "orders.outbox.max-delay", "200ms",
                "orders.outbox.poll-interval", "100ms",
                "orders.login.max-failures-per-user-and-address", Integer.toString(LOGIN_FAILURES_PER_USER_AND_ADDRESS));
    }
}
