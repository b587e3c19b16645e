package io.orderflow.web;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;

import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.shared.money.Money;

/**
 * What the staff console's order list reads besides {@code GET /orders}'s filters: how many orders each state holds, and
 * the operators' views, each the orders that need someone to look at them, newest first, a page at a time after the
 * same cursor as the API's list (an order id). Each view finds its orders through an index that holds only them, or
 * through the small tables of open work (open payments, the outbox), then reads the orders by id.
 */
@ApplicationScoped
class ConsoleOrderViews {

    /** An order as the list shows it. */
    record Listed(UUID id, long orderNumber, String status, String customer, String amount, String currency, Instant createdAt) {
    }

    /** How many orders are in a state. */
    record Count(String status, long orders) {
    }

    private static final String LISTED = "SELECT o.id, o.order_number, o.status, o.customer, o.total_amount, o.currency, o.created_at FROM orders o ";
    private static final String NEWEST_FIRST = " AND o.id < ? ORDER BY o.id DESC LIMIT ?";

    // Paid orders by (status, id) and each one's payment by (order_id, event); bound first: paid before when.
    private static final String PAID_NOT_SHIPPED = LISTED + """
            JOIN order_history h ON h.order_id = o.id AND h.event = 'pay'
            WHERE o.status = 'paid' AND h.at < ?""" + NEWEST_FIRST;
    // A PROCESSING attempt is being charged or was, with an outcome nobody knows yet; the open attempts' partial
    // unique index (V3) holds only them.
    private static final String PAYMENT_UNKNOWN = LISTED + """
            WHERE o.id IN (SELECT p.order_id FROM payments p WHERE p.status = 'PROCESSING')""" + NEWEST_FIRST;
    // A refund still in the outbox is owed (PENDING: in line, however long the outage) or refused by the provider for
    // good (REFUSED, V18) and waiting for staff; a refund made leaves the outbox.
    private static final String REFUND_OPEN = LISTED + """
            WHERE o.id IN (SELECT m.order_id FROM outbox m WHERE m.kind = 'refund' AND m.status IN ('PENDING', 'REFUSED'))"""
            + NEWEST_FIRST;
    // A deadline that fired moved its order out of the state it runs in (V9): one still in it past its time is late. The
    // partial indexes of the deadlines' claims hold only these orders.
    private static final String PAST_DEADLINE = LISTED + """
            WHERE ((o.status = 'created' AND o.pay_by <= now()) OR (o.status = 'shipped' AND o.deliver_by <= now()))"""
            + NEWEST_FIRST;
    private static final String COUNTS = "SELECT status, count(*) FROM orders GROUP BY status";
    /** Greater than every id: the cursor of the first page. */
    private static final UUID NEWEST = new UUID(-1L, -1L);

    /** The operators' views, by the name the page's links give them. */
    enum View {
        PAID_NOT_SHIPPED("paid-not-shipped", ConsoleOrderViews.PAID_NOT_SHIPPED),
        PAYMENT_UNKNOWN("payment-unknown", ConsoleOrderViews.PAYMENT_UNKNOWN),
        REFUND_OPEN("refund-open", ConsoleOrderViews.REFUND_OPEN),
        PAST_DEADLINE("past-deadline", ConsoleOrderViews.PAST_DEADLINE);

        final String name;
        private final String sql;

        View(String name, String sql) {
            this.name = name;
            this.sql = sql;
        }

        static Optional<View> named(String name) {
            return Arrays.stream(values()).filter(view -> view.name.equals(name)).findFirst();
        }
    }

    private final DataSource dataSource;
    private final ConsoleOrdersConfig config;

    ConsoleOrderViews(DataSource dataSource, ConsoleOrdersConfig config) {
        this.dataSource = dataSource;
        this.config = config;
    }

    /** The view's orders, newest first, up to {@code limit} after the order {@code after} (from the newest without one). */
    List<Listed> list(View view, UUID after, int limit) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = connection.prepareStatement(view.sql)) {
            int parameter = 1;
            if (view == View.PAID_NOT_SHIPPED) {
                statement.setObject(parameter++, OffsetDateTime.now().minus(config.paidNotShippedAfter()));
            }
            statement.setObject(parameter++, after == null ? NEWEST : after);
            statement.setInt(parameter, limit);
            List<Listed> listed = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    String currency = rows.getString(6).strip();
                    listed.add(new Listed(rows.getObject(1, UUID.class), rows.getLong(2), rows.getString(3), rows.getString(4),
                            Money.format(rows.getBigDecimal(5), currency), currency, rows.getObject(7, OffsetDateTime.class).toInstant()));
                }
            }
            return listed;
        } catch (SQLException e) {
            throw new IllegalStateException("The orders of the view " + view.name + " could not be read: " + e.getMessage(), e);
        }
    }

    /** How many orders each state holds, every state named, in the lifecycle's order. */
    List<Count> counts() {
        Map<OrderStatus, Long> counted = new EnumMap<>(OrderStatus.class);
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = connection.prepareStatement(COUNTS);
                ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                counted.put(OrderStatus.fromWireName(rows.getString(1)), rows.getLong(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("The orders could not be counted: " + e.getMessage(), e);
        }
        return Arrays.stream(OrderStatus.values()).map(status -> new Count(status.wireName(), counted.getOrDefault(status, 0L))).toList();
    }
}
