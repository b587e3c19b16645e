package io.orderflow.web;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The whole service's business figures of the last hour, minute by minute, from the database (every instance's orders
 * and payments alike): one statement per figure, each a row for each of the 60 minutes up to the current one, oldest
 * first, so that a quiet minute is a 0 (or no rate) rather than a gap.
 */
@ApplicationScoped
class HealthStore {

    // Each reads the hour's rows in one range of its time index, and joins them to their minute by equality.
    /** Orders placed in each minute, found by ix_orders_created_at. */
    static final String ORDERS_PER_MINUTE = """
            SELECT count(o.id)
            FROM generate_series(date_trunc('minute', now()) - interval '59 minutes', date_trunc('minute', now()), interval '1 minute') AS minute
            LEFT JOIN orders o ON date_trunc('minute', o.created_at) = minute
                AND o.created_at >= date_trunc('minute', now()) - interval '59 minutes'
            GROUP BY minute ORDER BY minute""";
    /**
     * Of the payment attempts started in each minute and decided by now, the share that succeeded, in percent (a refunded
     * one had succeeded); null for a minute without any. Found by ix_payments_created_at.
     */
    static final String PAY_SUCCESS_PER_MINUTE = """
            SELECT 100.0 * count(p.id) FILTER (WHERE p.status IN ('SUCCESS', 'REFUNDED'))
                   / NULLIF(count(p.id) FILTER (WHERE p.status IN ('SUCCESS', 'REFUNDED', 'FAILURE')), 0)
            FROM generate_series(date_trunc('minute', now()) - interval '59 minutes', date_trunc('minute', now()), interval '1 minute') AS minute
            LEFT JOIN payments p ON date_trunc('minute', p.created_at) = minute
                AND p.created_at >= date_trunc('minute', now()) - interval '59 minutes'
            GROUP BY minute ORDER BY minute""";

    private final DataSource dataSource;

    HealthStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The figure of each of the last 60 minutes, oldest first, by one of this class's statements; null where it has none. */
    List<Double> perMinute(String statement) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement query = connection.prepareStatement(statement);
                ResultSet rows = query.executeQuery()) {
            List<Double> figures = new ArrayList<>();
            while (rows.next()) {
                double figure = rows.getDouble(1);
                figures.add(rows.wasNull() ? null : figure);
            }
            return figures;
        } catch (SQLException e) {
            throw new IllegalStateException("The last hour's figures could not be read: " + e.getMessage(), e);
        }
    }
}
