package io.orderflow.support;

import java.time.Duration;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Limits tight enough for a test to reach, in one app for the tests that need a setting none can change
 * at run time. Used with {@link UserStoreProxy}.
 * <ul>
 * <li>Sign-in as a deployment behind a trusted TLS-terminating proxy has it: the proxy settings the README
 * gives (forwarded client addresses and schemes are trusted), and small sign-in limits.</li>
 * <li>A short Idempotency-Key lease, so that the key of a holder that died is free within seconds.</li>
 * <li>The outbox polled an hour apart, so that an event delivered within a second shows the relay's
 * wake-up after a commit.</li>
 * </ul>
 */
public class TightLimits implements QuarkusTestProfile {

    public static final int PER_USER_AND_ADDRESS = 3;
    public static final int PER_ADDRESS = 6;
    public static final int CHECKS_PER_SECOND_PAST_ADDRESS_LIMIT = 1;
    public static final int SLOW_DOWN_AFTER = 3;
    public static final Duration MAX_DELAY = Duration.ofSeconds(1);
    /** Long enough for a burst's checks to end one after the other on a busy machine. */
    public static final Duration WAIT_FOR_CHECKS_IN_FLIGHT = Duration.ofSeconds(3);
    /** Long enough for a test's requests on a busy machine; tests end it early (in Redis) rather than wait it out. */
    public static final Duration WINDOW = Duration.ofSeconds(8);
    /** Long enough for the first request to a freshly started app on a busy machine to arrive within it. */
    public static final Duration IDEMPOTENCY_LEASE = Duration.ofSeconds(3);

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.ofEntries(
                Map.entry("orders.idempotency.lease", IDEMPOTENCY_LEASE.toSeconds() + "S"),
                Map.entry("orders.outbox.poll-interval", "1h"),
                Map.entry("orders.login.max-failures-per-user-and-address", String.valueOf(PER_USER_AND_ADDRESS)),
                Map.entry("orders.login.max-failures-per-address", String.valueOf(PER_ADDRESS)),
                Map.entry("orders.login.checks-per-second-past-address-limit", String.valueOf(CHECKS_PER_SECOND_PAST_ADDRESS_LIMIT)),
                Map.entry("orders.login.slow-down-after", String.valueOf(SLOW_DOWN_AFTER)),
                Map.entry("orders.login.max-delay", MAX_DELAY.toMillis() + "MS"),
                Map.entry("orders.login.wait-for-checks-in-flight", WAIT_FOR_CHECKS_IN_FLIGHT.toMillis() + "MS"),
                Map.entry("orders.login.window", WINDOW.toSeconds() + "S"),
                Map.entry("quarkus.http.proxy.proxy-address-forwarding", "true"),
                Map.entry("quarkus.http.proxy.allow-x-forwarded", "true"));
    }
}
