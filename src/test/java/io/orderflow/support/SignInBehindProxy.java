package io.orderflow.support;

import java.time.Duration;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Sign-in as a deployment behind a trusted TLS-terminating proxy has it: the proxy settings the
 * README gives (forwarded client addresses and schemes are trusted), and sign-in limits small enough
 * for a test to reach. Used with {@link UserStoreProxy}, so that its tests share one app.
 */
public class SignInBehindProxy implements QuarkusTestProfile {

    public static final int PER_USER_AND_ADDRESS = 3;
    public static final int PER_ADDRESS = 6;
    public static final int SLOW_DOWN_AFTER = 3;
    public static final Duration MAX_DELAY = Duration.ofSeconds(1);
    /** Long enough for a test's requests on a busy machine; tests end it early (in Redis) rather than wait it out. */
    public static final Duration WINDOW = Duration.ofSeconds(8);

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("orders.login.max-failures-per-user-and-address", String.valueOf(PER_USER_AND_ADDRESS),
                "orders.login.max-failures-per-address", String.valueOf(PER_ADDRESS),
                "orders.login.slow-down-after", String.valueOf(SLOW_DOWN_AFTER),
                "orders.login.max-delay", MAX_DELAY.toMillis() + "MS",
                "orders.login.window", WINDOW.toSeconds() + "S",
                "quarkus.http.proxy.proxy-address-forwarding", "true",
                "quarkus.http.proxy.allow-x-forwarded", "true");
    }
}
