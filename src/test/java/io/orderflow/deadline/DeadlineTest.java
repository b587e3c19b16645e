package io.orderflow.deadline;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.field;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.Metrics;
import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.Products;
import io.orderflow.support.SignInForm;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;

/**
 * Durable timers: an order not paid within its payment deadline expires, and a shipped order not
 * delivered within its confirmation window is delivered by the system, each once, however many firers
 * look at once and whatever races them. The tests bring deadlines forward in the database rather than
 * wait for them.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class DeadlineTest {

    @Inject
    DeadlineService deadlines;

    /** The defaults of orders.payment-deadline and orders.delivery-confirm-after (docs/configuration.md). */
    private static final Duration PAYMENT_DEADLINE = Duration.ofMinutes(30);
    private static final Duration DELIVERY_CONFIRM_AFTER = Duration.ofDays(14);

    @Test
    void anOrderCarriesItsPaymentDeadlineWhileItIsCreatedAndItsConfirmationWhileShipped() {
        String sku = Products.newProduct("10.00", 10);
        Response created = placeOrder("alice", newToken("alice"), Products.orderOf(sku, 1));
        created.then().statusCode(201).body("payBy", notNullValue()).body("deliverBy", nullValue())
                .body("allowedActions", not(hasItem("expire")));
        String id = created.path("id");
        assertThat(Duration.between(Instant.parse(created.path("createdAt")), Instant.parse(created.path("payBy")))).isEqualTo(PAYMENT_DEADLINE);

        act("alice", id, "pay").then().statusCode(200).body("payBy", nullValue());
        Response shipped = act("ops", id, "ship");
        shipped.then().statusCode(200).body("deliverBy", notNullValue()).body("allowedActions", not(hasItem("confirm")));
        assertThat(Duration.between(Instant.parse(shipped.path("updatedAt")), Instant.parse(shipped.path("deliverBy")))).isEqualTo(DELIVERY_CONFIRM_AFTER);
    }

    @Test
    void unpaidOrdersExpireOnceWhileOtherFirersCompeteAndTheirStockIsBack() {
        int orders = 200;
        String sku = Products.newProduct("5.00", orders);
        double firedBefore = metric("orders_deadlines_fired_total{event=\"expire\"}");

        List<String> ids = Parallel.run(orders, () -> placeOrder("bob", newToken("bob"), Products.orderOf(sku, 1))
                .then().statusCode(201).extract().<String>path("id"));
        Orders.execute("UPDATE orders SET pay_by = now() WHERE id = ANY('{" + String.join(",", ids) + "}')");
        // Two more firers, as other instances would be, claim batches beside the scheduler's own.
        AtomicBoolean expiring = new AtomicBoolean(true);
        List<Callable<Integer>> firers = new ArrayList<>();
        for (int firer = 0; firer < 2; firer++) {
            firers.add(() -> {
                int claimed = 0;
                while (expiring.get()) {
                    claimed += deadlines.fireDue(Deadline.PAYMENT, 10);
                }
                return claimed;
            });
        }
        firers.add(() -> {
            await().atMost(Duration.ofSeconds(30)).until(() -> expired(sku) == orders);
            expiring.set(false);
            return 0;
        });
        Parallel.run(firers);

        assertThat(count("""
                SELECT count(*) FROM orders o JOIN order_items i ON i.order_id = o.id
                WHERE i.sku = ? AND o.status = 'cancelled' AND o.version = 1
                  AND (SELECT count(*) FROM order_history h WHERE h.order_id = o.id) = 1
                  AND EXISTS (SELECT 1 FROM order_history h WHERE h.order_id = o.id AND h.event = 'expire' AND h.actor = 'system'
                              AND h.from_status = 'created' AND h.to_status = 'cancelled')""", sku)).isEqualTo(orders);
        // Within 3 s while 200 buyers keep the machine's two cores busy; DeadlineScaleTest holds the second.
        assertThat(lateness(sku)).isLessThan(Duration.ofSeconds(3));
        assertThat(Products.stock(sku)).isEqualTo(orders + "/0");
        assertThat(count("SELECT count(*) FROM outbox_all WHERE kind = 'order-event' AND payload LIKE '%\"type\":\"cancelled\",\"event\":\"expire\"%' AND order_id = ANY(CAST(? AS uuid[]))",
                "{" + String.join(",", ids) + "}")).isEqualTo(orders);
        assertThat(metric("orders_deadlines_fired_total{event=\"expire\"}") - firedBefore).isEqualTo(orders);
    }

    @Test
    void aPayRacingItsExpiryEndsEitherPaidOrExpiredWithAnyChargeRefunded() {
        int rounds = 50;
        String sku = Products.newProduct("7.00", rounds);
        int paid = 0;
        for (int round = 0; round < rounds; round++) {
            String id = field(placeOrder("alice", newToken("alice"), Products.orderOf(sku, 1)).then().statusCode(201).extract().response(), "id");
            dueNow(id, "pay_by");

            Response pay = racingTheFiring(Deadline.PAYMENT, () -> act("alice", id, "pay"));

            String history = Orders.value("SELECT string_agg(event, ',' ORDER BY id) FROM order_history WHERE order_id = ?", id);
            if (pay.statusCode() == 200) {
                paid++;
                assertThat(field(pay, "status")).isEqualTo("paid");
                assertThat(history).as("round %d", round).isEqualTo("pay");
                assertThat(ledger(id)).as("charges/refunds, round %d", round).isEqualTo("1/0");
            } else {
                assertThat(pay.statusCode()).isEqualTo(409);
                assertThat(field(pay, "code")).isEqualTo("invalid-transition");
                assertThat(field(pay, "currentStatus")).isEqualTo("cancelled");
                assertThat(history).as("round %d", round).isEqualTo("expire");
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(ledger(id)).as("charges/refunds").isIn("0/0", "1/1"));
            }
        }
        assertThat(Products.stock(sku)).isEqualTo(rounds + "/" + paid);
    }

    @Test
    void aShippedOrderIsConfirmedDeliveredByTheSystem() {
        String id = shippedOrder();
        dueNow(id, "deliver_by");
        await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(as("alice").get("/orders/{id}", id).path("status")));

        as("alice").get("/orders/{id}", id).then().body("version", equalTo(3)).body("deliverBy", nullValue())
                .body("history.event", equalTo(List.of("pay", "ship", "confirm")))
                .body("history.actor", equalTo(List.of("customer", "staff", "system")));
        assertThat(Orders.value("SELECT actor FROM order_history WHERE order_id = ? AND event = 'confirm'", id)).isEqualTo("system");
        assertThat(lateness(id, "deliver_by", "confirm")).isLessThan(Duration.ofSeconds(1));
    }

    @Test
    void aStaffDeliverRacingTheConfirmationGivesOneDeliveredTransition() {
        for (int round = 0; round < 20; round++) {
            String id = shippedOrder();
            dueNow(id, "deliver_by");

            Response deliver = racingTheFiring(Deadline.DELIVERY, () -> act("ops", id, "deliver"));

            assertThat(deliver.statusCode()).as("round %d", round).isIn(200, 409);
            assertThat(count("SELECT count(*) FROM order_history WHERE order_id = CAST(? AS uuid) AND to_status = 'delivered'", id))
                    .as("round %d", round).isEqualTo(1);
            assertThat(Orders.value("SELECT status || ' ' || version FROM orders WHERE id = ?", id)).isEqualTo("delivered 3");
        }
    }

    @Test
    void anOrderWhoseExpiryFailsIsPutOffAndHoldsNoOtherBack() {
        String broken = Products.newProduct("2.00", 5);
        String sound = Products.newProduct("2.00", 5);
        String stuck = placeOrder("alice", newToken("alice"), Products.orderOf(broken, 1)).then().statusCode(201).extract().path("id");
        String next = placeOrder("alice", newToken("alice"), Products.orderOf(sound, 1)).then().statusCode(201).extract().path("id");
        // The product no longer shows what the order reserved: releasing it fails, whatever fires it.
        Orders.execute("UPDATE products SET reserved = 0 WHERE sku = '" + broken + "'");
        double failedBefore = metric("orders_deadlines_failed_total{event=\"expire\"}");

        // The failing order first in deadline order, the other right behind it, in the same look.
        Orders.execute("UPDATE orders SET pay_by = CASE WHEN id = '" + stuck + "' THEN now() - interval '1 second' ELSE now() END"
                + " WHERE id IN ('" + stuck + "', '" + next + "')");
        await().atMost(Duration.ofSeconds(10)).until(() -> "cancelled".equals(as("alice").get("/orders/{id}", next).path("status")));

        as("alice").get("/orders/{id}", stuck).then().body("status", equalTo("created"));
        assertThat(putOff(stuck)).isEqualTo("1 failure, put off 1 minute");
        assertThat(metric("orders_deadlines_failed_total{event=\"expire\"}") - failedBefore).isEqualTo(1);

        // Each further failure puts it off twice as long.
        dueNow(stuck, "pay_by");
        await().atMost(Duration.ofSeconds(10)).until(() -> putOff(stuck).startsWith("2 failures"));
        assertThat(putOff(stuck)).isEqualTo("2 failures, put off 2 minutes");
        assertThat(metric("orders_deadlines_failed_total{event=\"expire\"}") - failedBefore).isEqualTo(2);
        // ... but never longer than orders.deadlines.retry-failed-at-most (1H).
        Orders.execute("UPDATE orders SET deadline_failures = 10, pay_by = now() WHERE id = '" + stuck + "'");
        await().atMost(Duration.ofSeconds(10)).until(() -> putOff(stuck).startsWith("11 failures"));
        assertThat(putOff(stuck)).isEqualTo("11 failures, put off 60 minutes");

        // Mended, the order expires at its next deadline.
        Orders.execute("UPDATE products SET reserved = 1 WHERE sku = '" + broken + "'");
        dueNow(stuck, "pay_by");
        await().atMost(Duration.ofSeconds(10)).until(() -> "cancelled".equals(as("alice").get("/orders/{id}", stuck).path("status")));
        assertThat(Products.stock(broken)).isEqualTo("5/0");
    }

    @Test
    void theOrderPageShowsThePaymentDeadlineAndThenThatTheOrderExpiredAndTheCustomerIsTold() {
        String id = placeOrder("alice", newToken("alice"), Products.orderOf(Products.newProduct("3.00", 1), 1))
                .then().statusCode(201).extract().path("id");
        // Less than a minute left, and time enough for this page on a busy machine; then due at once.
        Orders.execute("UPDATE orders SET pay_by = now() + interval '50 seconds' WHERE id = '" + id + "'");
        CookieFilter browser = new CookieFilter();
        SignInForm.signIn(browser, "alice", "alice").then().statusCode(302);

        given().filter(browser).get("/checkout/orders/{id}", id).then().statusCode(200)
                .body(containsString("id=\"pay-by\">Pay by"))
                .body(containsString("less than a minute left"));
        dueNow(id, "pay_by");
        await().atMost(Duration.ofSeconds(10)).until(() -> "cancelled".equals(as("alice").get("/orders/{id}", id).path("status")));
        given().filter(browser).get("/checkout/orders/{id}", id).then().statusCode(200)
                .body(not(containsString("id=\"pay-by\"")))
                .body(containsString("has expired"))
                .body(containsString("<li>expire by system: created → cancelled at"));
        as("alice").get("/orders/{id}", id).then().body("history.event", contains("expire")).body("history.actor", contains("system"));
        // The order event says it was the expiry, not a cancel, and the customer is told so.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                Orders.value("SELECT string_agg(message, ' | ' ORDER BY id) FROM order_notifications WHERE order_id = ?", id))
                .isEqualTo("Your order is created. | Your order expired unpaid; its items are back on sale."));
    }

    @Test
    void theMetricsShowWhatFiredAndHowLongTheOldestDueDeadlineHasWaited() {
        Metrics.scrape().then().statusCode(200)
                .body(containsString("orders_deadlines_oldest_overdue_seconds{event=\"expire\"}"))
                .body(containsString("orders_deadlines_oldest_overdue_seconds{event=\"confirm\"}"));
        assertThat(metric("orders_deadlines_oldest_overdue_seconds{event=\"expire\"}")).isLessThan(2.0);
    }

    /** Runs a request and a firing of the deadline's due orders at once; returns the request's answer. */
    private Response racingTheFiring(Deadline deadline, Callable<Response> request) {
        return Parallel.run(List.<Callable<Response>>of(request, () -> {
            deadlines.fireDue(deadline, 100);
            return null;
        })).get(0);
    }

    /** An order of alice's, paid and shipped: its confirmation window runs. */
    private static String shippedOrder() {
        String id = placeOrder("alice", newToken("alice"), Products.orderOf(Products.newProduct("4.00", 1), 1))
                .then().statusCode(201).extract().path("id");
        act("alice", id, "pay").then().statusCode(200);
        act("ops", id, "ship").then().statusCode(200);
        return id;
    }

    /** Brings an order's deadline to now, so that a firing races what the test does next. */
    /** How often the order's deadline failed and, to the minute, how far off it now is. */
    private static String putOff(String id) {
        return Orders.value("""
                SELECT deadline_failures || CASE WHEN deadline_failures = 1 THEN ' failure' ELSE ' failures' END || ', put off '
                    || round(extract(epoch FROM pay_by - now()) / 60) || CASE WHEN round(extract(epoch FROM pay_by - now()) / 60) = 1
                    THEN ' minute' ELSE ' minutes' END
                FROM orders WHERE id = ?""", id);
    }

    private static void dueNow(String id, String column) {
        Orders.execute("UPDATE orders SET " + column + " = now() WHERE id = '" + id + "'");
    }

    static int expired(String sku) {
        return count("SELECT count(*) FROM orders o JOIN order_items i ON i.order_id = o.id WHERE i.sku = ? AND o.status = 'cancelled'", sku);
    }

    /** How late the latest of the expiries of a product's orders fired, after its deadline. */
    static Duration lateness(String sku) {
        return Duration.ofMillis(Long.parseLong(Orders.value("""
                SELECT CAST(max(extract(epoch FROM h.at - o.pay_by)) * 1000 AS bigint)
                FROM orders o JOIN order_items i ON i.order_id = o.id JOIN order_history h ON h.order_id = o.id AND h.event = 'expire'
                WHERE i.sku = ?""", sku)));
    }

    private static Duration lateness(String id, String column, String event) {
        return Duration.ofMillis(Long.parseLong(Orders.value("SELECT CAST(extract(epoch FROM h.at - o." + column + ") * 1000 AS bigint) "
                + "FROM orders o JOIN order_history h ON h.order_id = o.id AND h.event = '" + event + "' WHERE o.id = ?", id)));
    }

    /** "charges/refunds" the sandbox provider made for an order. */
    private static String ledger(String id) {
        Ledger ledger = Ledger.of(id);
        return ledger.charges() + "/" + ledger.refunds();
    }

    static int count(String sql, String... parameters) {
        return Integer.parseInt(Orders.value(sql, parameters));
    }

    static double metric(String series) {
        String metrics = Metrics.scrape().then().statusCode(200).extract().asString();
        Matcher value = Pattern.compile("^" + Pattern.quote(series) + " (\\S+)(?: # .*)?$", Pattern.MULTILINE).matcher(metrics);
        return value.find() ? Double.parseDouble(value.group(1)) : 0;
    }
}
