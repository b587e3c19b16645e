package io.orderflow.order;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Reads one whole order (the order, its items, its history) with one prepared statement, outside any
 * transaction, into detached entities for {@link OrderMapper}: the hottest read of the API, where
 * Hibernate's fetch join cost a third of the request's CPU in reading rows into managed entities that
 * are never written. The rows are the join's, items times history steps, each kept once.
 */
@ApplicationScoped
class OrderReadStore {

    private static final String WHOLE = """
            SELECT o.id, o.order_number, o.customer, o.status, o.currency, o.total_amount, o.version, o.created_at, o.updated_at,
                   o.pay_by, o.deliver_by, o.shipping_address,
                   i.line_no, i.sku, i.name, i.quantity, i.unit_price,
                   h.id, h.from_status, h.to_status, h.event, h.actor, h.at
            FROM orders o LEFT JOIN order_items i ON i.order_id = o.id LEFT JOIN order_history h ON h.order_id = o.id
            WHERE o.id = ?
            ORDER BY i.line_no, h.id""";
    private static final OrderStatusConverter STATUS = new OrderStatusConverter();
    private static final ShippingAddressConverter ADDRESS = new ShippingAddressConverter();

    private final DataSource dataSource;

    OrderReadStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The order with its items and history in their order, detached; empty when no order has this id. */
    Optional<Order> find(UUID id) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = connection.prepareStatement(WHOLE)) {
            statement.setObject(1, id);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Optional.of(read(rows)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("The order " + id + " could not be read: " + e.getMessage(), e);
        }
    }

    private static Order read(ResultSet rows) throws SQLException {
        Order order = new Order();
        order.id = rows.getObject(1, UUID.class);
        order.orderNumber = rows.getLong(2);
        order.customer = rows.getString(3);
        order.status = STATUS.convertToEntityAttribute(rows.getString(4));
        order.currency = rows.getString(5);
        order.totalAmount = rows.getBigDecimal(6);
        order.version = rows.getLong(7);
        order.createdAt = instant(rows, 8);
        order.updatedAt = instant(rows, 9);
        order.payBy = instant(rows, 10);
        order.deliverBy = instant(rows, 11);
        order.shippingAddress = ADDRESS.convertToEntityAttribute(rows.getString(12));
        Set<Long> steps = new HashSet<>();
        int lastLine = -1;
        do {
            int line = rows.getInt(13);
            if (!rows.wasNull() && line != lastLine) {
                order.items.add(new OrderLine(rows.getString(14), rows.getInt(16), rows.getBigDecimal(17), rows.getString(15)));
                lastLine = line;
            }
            long step = rows.getLong(18);
            if (!rows.wasNull() && steps.add(step)) {
                OrderTransition transition = new OrderTransition();
                transition.id = step;
                transition.from = STATUS.convertToEntityAttribute(rows.getString(19));
                transition.to = STATUS.convertToEntityAttribute(rows.getString(20));
                transition.event = rows.getString(21);
                transition.actor = rows.getString(22);
                transition.at = instant(rows, 23);
                order.history.add(transition);
            }
        } while (rows.next());
        return order;
    }

    private static Instant instant(ResultSet rows, int column) throws SQLException {
        OffsetDateTime at = rows.getObject(column, OffsetDateTime.class);
        return at == null ? null : at.toInstant();
    }
}
