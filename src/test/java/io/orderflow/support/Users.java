package io.orderflow.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import io.quarkus.elytron.security.common.BcryptUtil;

/**
 * Users added straight to this run's users table, each with its name as its password (as the demo
 * users have), for tests that need many users. Hashed at bcrypt's lowest cost, like the demo users,
 * so that signing in stays cheap.
 */
public final class Users {

    private static final int CHEAP_COST = 4;

    private Users() {
    }

    /** Adds the user unless the name is already there (a restarted profile may add it again). */
    public static void add(String name, String role) {
        try (Connection connection = TestServers.connect();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO users (name, password, role) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING")) {
            insert.setString(1, name);
            insert.setString(2, BcryptUtil.bcryptHash(name, CHEAP_COST));
            insert.setString(3, role);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot add user " + name, e);
        }
    }
}
