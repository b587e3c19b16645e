package io.orderflow.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import io.quarkus.elytron.security.common.BcryptUtil;

/**
 * Users added straight to this run's users table, each with its name as its password (as the demo
 * users have), for tests that need many users. Hashed at bcrypt's lowest cost, like the demo users,
 * so that signing in stays cheap. Each has a saved shipping address, as the demo users have, so that
 * their orders may name none.
 */
public final class Users {

    private static final int CHEAP_COST = 4;
    private static final String SAVE_ADDRESS = """
            INSERT INTO customer_addresses (customer, address, updated_at) VALUES (?, CAST(? AS jsonb), now())
            ON CONFLICT (customer) DO NOTHING""";
    private static final String ADDRESS = "{\"name\":\"%s\",\"lines\":[\"1 Test Road\"],\"city\":\"Shanghai\",\"country\":\"CN\"}";

    private Users() {
    }

    /** Adds the user unless the name is already there (a restarted profile may add it again). */
    public static void add(String name, String role) {
        try (Connection connection = TestServers.connect();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO users (name, password, role) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING");
                PreparedStatement address = connection.prepareStatement(SAVE_ADDRESS)) {
            insert.setString(1, name);
            insert.setString(2, BcryptUtil.bcryptHash(name, CHEAP_COST));
            insert.setString(3, role);
            insert.executeUpdate();
            address.setString(1, name);
            address.setString(2, ADDRESS.formatted(name));
            address.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot add user " + name, e);
        }
    }

    /** Forgets the user's saved shipping address, for tests of a customer who has none. */
    public static void forgetAddress(String name) {
        try (Connection connection = TestServers.connect();
                PreparedStatement delete = connection.prepareStatement("DELETE FROM customer_addresses WHERE customer = ?")) {
            delete.setString(1, name);
            delete.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot forget the address of " + name, e);
        }
    }
}
