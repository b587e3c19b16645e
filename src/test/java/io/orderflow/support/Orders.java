package io.orderflow.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.orderflow.shared.Hashing;

/** Looks at this run's order rows directly, to count what really happened. */
public final class Orders {

    private static final String TOKEN_ROWS = "SELECT customer, order_id FROM order_tokens WHERE token_hash = ? ORDER BY customer";

    private Orders() {
    }

    public static int countForToken(String token) {
        return count("SELECT count(*) FROM orders WHERE token_hash = ?", Hashing.sha256Hex(token));
    }

    /** The token's rows in order_tokens, by customer: "alice: order {id}" or "bob: refused". */
    public static List<String> tokenRows(String token) {
        try (Connection connection = TestServers.connect(); PreparedStatement statement = connection.prepareStatement(TOKEN_ROWS)) {
            statement.setString(1, Hashing.sha256Hex(token));
            List<String> rows = new ArrayList<>();
            try (ResultSet found = statement.executeQuery()) {
                while (found.next()) {
                    rows.add(found.getString(1) + ": " + (found.getString(2) == null ? "refused" : "order " + found.getString(2)));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public static int countAll() {
        return count("SELECT count(*) FROM orders");
    }

    /** The first column of the first row of a query with string parameters, or null. */
    public static String value(String sql, String... parameters) {
        List<String> rows = values(sql, parameters);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** The first column of every row of a query with string parameters. */
    public static List<String> values(String sql, String... parameters) {
        try (Connection connection = TestServers.connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i], java.sql.Types.OTHER);
            }
            try (ResultSet rows = statement.executeQuery()) {
                List<String> values = new ArrayList<>();
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
                return values;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sets the answer a token's row keeps for its order's creation, as another version would have kept it (or null). */
    public static void keepTokenAnswer(String token, String answer) {
        try (Connection connection = TestServers.connect();
                PreparedStatement statement = connection.prepareStatement("UPDATE order_tokens SET answer = ? WHERE token_hash = ?")) {
            statement.setString(1, answer);
            statement.setString(2, Hashing.sha256Hex(token));
            if (statement.executeUpdate() != 1) {
                throw new IllegalStateException("The token has no order row to keep an answer in");
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs SQL in this run's schema, e.g. to make the database fail on purpose. */
    public static void execute(String sql) {
        try (Connection connection = TestServers.connect()) {
            connection.createStatement().execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int count(String sql, String... parameters) {
        try (Connection connection = TestServers.connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setString(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
