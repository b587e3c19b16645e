package io.orderflow.deadline;

import static io.orderflow.deadline.DeadlineTest.count;
import static io.orderflow.deadline.DeadlineTest.expired;
import static io.orderflow.deadline.DeadlineTest.lateness;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.Products;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * 100,000 orders whose deadlines are a day away and 1,000 that fall due together: the due ones all fire,
 * once, found through the deadline's partial index, never by a scan of the table. How late they fire is
 * printed, not asserted: it is the machine's speed (the suite runs the proof under faults beside it).
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class DeadlineScaleTest {

    private static final int WAITING = 100_000;
    private static final int DUE = 1_000;
    private static final String FAR_CUSTOMER = "deadline-far";
    private static final String DUE_CUSTOMER = "deadline-due";
    private static final String INSERT = """
            INSERT INTO orders (id, customer, token_hash, request_fingerprint, status, currency, total_amount, version,
                stock_reserved, created_at, updated_at, pay_by)
            SELECT gen_random_uuid(), ?, encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'hex'), repeat('0', 64),
                'created', 'CNY', 1, 0, ?, now(), now(), clock_timestamp() + CAST(? AS interval)
            FROM generate_series(1, ?)""";
    private static final String ITEMS = """
            INSERT INTO order_items (order_id, line_no, sku, quantity, unit_price)
            SELECT id, 0, ?, 1, 1 FROM orders WHERE customer = ?""";

    @Test
    void theDueThousandAmongAHundredThousandFireOnceThroughTheDeadlineIndex() throws SQLException {
        String sku = Products.newProduct("1.00", DUE);
        try (Connection connection = TestServers.connect()) {
            insert(connection, FAR_CUSTOMER, false, "1 day", WAITING);
            // Due 2 s after they are written, in a transaction of their own that commits well before.
            connection.setAutoCommit(false);
            insert(connection, DUE_CUSTOMER, true, "2 seconds", DUE);
            try (PreparedStatement items = connection.prepareStatement(ITEMS)) {
                items.setString(1, sku);
                items.setString(2, DUE_CUSTOMER);
                items.executeUpdate();
            }
            try (Statement reserve = connection.createStatement()) {
                reserve.executeUpdate("UPDATE products SET reserved = " + DUE + " WHERE sku = '" + sku + "'");
            }
            connection.commit();

            String plan = plan(connection);
            assertThat(plan).as("the claim's plan").contains("ix_orders_pay_by_created").doesNotContain("Seq Scan");

            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> expired(sku) == DUE);
            Duration late = lateness(sku);
            String spread = Orders.value("""
                    SELECT CAST(extract(epoch FROM max(h.at) - min(h.at)) * 1000 AS bigint) FROM order_history h
                    JOIN orders o ON o.id = h.order_id WHERE o.customer = ? AND h.event = 'expire'""", DUE_CUSTOMER);
            System.out.printf("%d due among %d waiting: all fired %d ms after their deadline at the latest, %s ms from first to last%n",
                    DUE, WAITING, late.toMillis(), spread);
            assertThat(count("SELECT count(*) FROM order_history h JOIN orders o ON o.id = h.order_id WHERE o.customer = ?", DUE_CUSTOMER))
                    .isEqualTo(DUE);
            assertThat(Products.stock(sku)).isEqualTo(DUE + "/0");
            assertThat(count("SELECT count(*) FROM orders WHERE customer = ? AND status = 'created'", FAR_CUSTOMER)).isEqualTo(WAITING);
        } finally {
            // Other test classes share this run's schema and list all orders; the server runs without
            // autovacuum, and 101,000 dead rows would slow whatever scans the table after this.
            Orders.execute("DELETE FROM orders WHERE customer IN ('" + FAR_CUSTOMER + "', '" + DUE_CUSTOMER + "')");
            Orders.execute("VACUUM orders");
        }
    }

    private static void insert(Connection connection, String customer, boolean reserved, String dueIn, int orders) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, customer);
            insert.setBoolean(2, reserved);
            insert.setString(3, dueIn);
            insert.setInt(4, orders);
            assertThat(insert.executeUpdate()).isEqualTo(orders);
        }
    }

    /** The plan of the firing's claim, as PostgreSQL would run it now. */
    private static String plan(Connection connection) throws SQLException {
        String claim = Deadline.PAYMENT.claimDue.replace(":now", "now()").replace(":limit", "100");
        StringBuilder plan = new StringBuilder();
        try (Statement explain = connection.createStatement(); ResultSet lines = explain.executeQuery("EXPLAIN " + claim)) {
            while (lines.next()) {
                plan.append(lines.getString(1)).append('\n');
            }
        }
        System.out.print(plan);
        return plan.toString();
    }
}
