package io.orderflow.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Holds the sandbox provider's lock on one idempotency key, so that every call with that key waits
 * until {@link #close()}: a charge can be made to land only after the test has seen the service give up.
 */
public final class HeldProviderKey implements AutoCloseable {

    // The same lock the sandbox takes per call (SandboxProviders.LOCK_KEY), held across transactions here.
    private static final String HOLD = "SELECT pg_advisory_lock(hashtextextended(?, 0))";

    private final Connection connection;

    private HeldProviderKey(Connection connection) {
        this.connection = connection;
    }

    /** Holds charges under the key, e.g. {@code Payment.keyFor(orderId, 1)}. */
    public static HeldProviderKey charge(String key) {
        try {
            Connection connection = TestServers.connect();
            try (PreparedStatement hold = connection.prepareStatement(HOLD)) {
                hold.setString(1, "CHARGE:" + key);
                hold.executeQuery().close();
            }
            return new HeldProviderKey(connection);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Lets the waiting calls go on, in the order they came. */
    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
