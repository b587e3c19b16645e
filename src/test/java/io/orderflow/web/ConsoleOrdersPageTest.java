package io.orderflow.web;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.SignInForm.signIn;
import static io.orderflow.web.WebCheckoutTest.browser;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;

/**
 * The staff console's order list: filtered by status, customer and day, an order found by number or id opens its page,
 * the counts per status are the database's, each operator's view lists the orders that belong in it and no other, a
 * page's Next link keeps the filters, and a value that cannot be a filter is a 400 page saying so. Customers are
 * refused; a visitor signs in and comes back.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class ConsoleOrdersPageTest {

    private static final String LIST = "/console/orders";
    private static final Pattern NEXT = Pattern.compile("<a href=\"([^\"]+)\" rel=\"next\">");
    private static final Pattern ROW = Pattern.compile("<a href=\"/console/orders/[0-9a-f-]{36}\">");

    @Test
    void staffFilterByStatusCustomerAndDay() {
        String paid = newOrder("alice");
        act("alice", paid, "pay").then().statusCode(200);
        String created = newOrder("alice");
        WebCheckoutTest.Browser ops = browser("ops");

        String paidOnes = ops.get(LIST + "?status=paid").then().statusCode(200).header("Cache-Control", "no-store").extract().asString();
        assertThat(paidOnes).contains(row(paid), "25.00 CNY", "<time datetime=\"", "<option value=\"paid\" selected>")
                .doesNotContain(row(created));

        String customer = customerOf(created);
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        assertThat(ops.get(LIST + "?customer=" + customer).asString()).contains(row(created), "<td class=\"customer\">" + customer)
                .doesNotContain(row(paid));
        assertThat(ops.get(LIST + "?customer=" + customer + "&createdFrom=" + today + "&createdTo=" + today).asString()).contains(row(created));
        String yesterday = LocalDate.now(ZoneOffset.UTC).minusDays(1).toString();
        assertThat(ops.get(LIST + "?customer=" + customer + "&createdTo=" + yesterday).asString()).doesNotContain(row(created))
                .contains("No orders here.");
    }

    @Test
    void anOrderNumberOrIdOpensItsPage() {
        String id = newOrder("alice");
        String number = Orders.value("SELECT order_number FROM orders WHERE id = ?::uuid", id);
        WebCheckoutTest.Browser ops = browser("ops");

        ops.get(LIST + "?find=" + number).then().statusCode(303).header("Location", endsWith("/console/orders/" + id));
        ops.get(LIST + "?find=" + id).then().statusCode(303).header("Location", endsWith("/console/orders/" + id));
        ops.get(LIST + "?find=" + UUID.randomUUID()).then().statusCode(404).body(containsString("No order has the number or id"));
        ops.get(LIST + "?find=99999999999").then().statusCode(404).body(containsString("No order has the number or id 99999999999."));
        ops.get(LIST + "?find=order-7").then().statusCode(400).body(containsString("Order number or id: enter an order number"));
    }

    @Test
    void theCountsPerStatusAreTheDatabases() {
        String paid = newOrder("alice");
        act("alice", paid, "pay").then().statusCode(200);
        WebCheckoutTest.Browser ops = browser("ops");

        // A deadline may move an order meanwhile: the page and the database agree once nothing moved between them.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            String page = ops.get(LIST).then().statusCode(200).extract().asString();
            for (OrderStatus status : OrderStatus.values()) {
                String counted = Orders.value("SELECT count(*) FROM orders WHERE status = ?", status.wireName());
                assertThat(page).as(status.wireName()).contains("id=\"count-" + status.wireName() + "\">" + counted + "<");
            }
        });
        assertThat(ops.get(LIST).asString()).contains("<a href=\"/console/orders?status=paid\">");
    }

    @Test
    void paidAndNotShippedForADayIsListedAndOneJustPaidIsNot() {
        String late = newOrder("alice");
        act("alice", late, "pay").then().statusCode(200);
        Orders.value("UPDATE orders SET created_at = now() - interval '26 hours' WHERE id = ?::uuid RETURNING id", late);
        Orders.value("UPDATE order_history SET at = now() - interval '25 hours' WHERE order_id = ?::uuid AND event = 'pay' RETURNING id", late);
        String justPaid = newOrder("alice");
        act("alice", justPaid, "pay").then().statusCode(200);

        String view = browser("ops").get(LIST + "?view=paid-not-shipped").then().statusCode(200).extract().asString();
        assertThat(view).contains(row(late), "aria-current=\"page\">Paid over 24 h ago, not shipped").doesNotContain(row(justPaid));
    }

    @Test
    void aPaymentWhoseOutcomeIsUnknownIsListed() {
        // An attempt sent whose answer never came: recovery is off in tests, so it stays PROCESSING.
        listedWhile("payment-unknown", """
                INSERT INTO payments (idempotency_key, order_id, amount, currency, status, channel, created_at, updated_at, attempt,
                    payment_method, claim_id, claimed_until, sent_at, next_check_at)
                SELECT 'payment:' || id || ':1', id, total_amount, currency, 'PROCESSING', 'card', now(), now(), 1, 'pm_card_visa',
                    gen_random_uuid(), now(), now(), now() + interval '1 hour'
                FROM orders WHERE id = ?::uuid RETURNING id""", "DELETE FROM payments WHERE order_id = ?::uuid RETURNING id");
    }

    @Test
    void aRefundRefusedIsListed() {
        // A refund the provider refused for good waits for staff in the outbox; the relay never takes it.
        listedWhile("refund-open", """
                INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at,
                    last_error_code, last_error_message)
                SELECT 'refund', id, 'refund:' || id, json_build_object('orderId', id, 'amount', '25.00', 'currency', 'CNY',
                    'charge', 'ch_console')::text, 'REFUSED', 1, now(), now(), 'provider-refused', 'charge_already_refunded'
                FROM orders WHERE id = ?::uuid RETURNING id""", "DELETE FROM outbox WHERE order_id = ?::uuid AND kind = 'refund' RETURNING id");
    }

    @Test
    void anOrderPastItsPaymentDeadlineIsListedUntilItFires() throws SQLException {
        String late = newOrder("alice");
        String onTime = newOrder("alice");
        // The deadlines claim due orders FOR UPDATE SKIP LOCKED: a key-share lock keeps this one unfired while it is late,
        // and lets the update through.
        try (Connection holder = TestServers.connect()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("SELECT id FROM orders WHERE id = ?::uuid FOR KEY SHARE")) {
                lock.setString(1, late);
                lock.executeQuery();
            }
            Orders.value("UPDATE orders SET pay_by = now() - interval '1 hour' WHERE id = ?::uuid RETURNING id", late);

            String view = browser("ops").get(LIST + "?view=past-deadline").then().statusCode(200).extract().asString();
            assertThat(view).contains(row(late)).doesNotContain(row(onTime));
            holder.rollback();
        }
    }

    @Test
    void aSmallPageHasANextLinkThatKeepsTheFilters() {
        List<String> ids = List.of(newOrder("alice"), newOrder("alice"), newOrder("alice"));
        String customer = "console-pages-" + UUID.randomUUID();
        ids.forEach(id -> Orders.value("UPDATE orders SET customer = ? WHERE id = ?::uuid RETURNING id", customer, id));
        WebCheckoutTest.Browser ops = browser("ops");

        String first = ops.get(LIST + "?status=created&customer=" + customer + "&limit=2").then().statusCode(200).extract().asString();
        assertThat(first).contains(row(ids.get(2)), row(ids.get(1))).doesNotContain(row(ids.get(0)));
        Matcher next = NEXT.matcher(first);
        assertThat(next.find()).as("a Next link").isTrue();
        String href = next.group(1).replace("&amp;", "&");
        assertThat(href).contains("status=created", "customer=" + customer, "limit=2", "after=");

        String second = ops.get(href).then().statusCode(200).extract().asString();
        assertThat(second).contains(row(ids.get(0))).doesNotContain(row(ids.get(1)));
        assertThat(ROW.matcher(second).results().count()).isEqualTo(1);
        assertThat(NEXT.matcher(second).find()).as("no Next link on the last page").isFalse();
    }

    @Test
    void aValueThatCannotBeAFilterIsA400PageSayingWhich() {
        WebCheckoutTest.Browser ops = browser("ops");
        String badDay = ops.get(LIST + "?createdFrom=2026-13-45").then().statusCode(400).contentType(containsString("text/html"))
                .extract().asString();
        assertThat(badDay).contains("role=\"alert\"", "Created from: enter a day such as 2026-01-31.",
                "name=\"createdFrom\" type=\"date\" value=\"2026-13-45\" aria-invalid=\"true\"");
        ops.get(LIST + "?createdFrom=2026-02-01&createdTo=2026-01-01").then().statusCode(400)
                .body(containsString("Created to: enter a day such as 2026-01-31, not before created from."));
        ops.get(LIST + "?status=lost").then().statusCode(400).body(containsString("Status: choose one from the list."));
        ops.get(LIST + "?view=everything").then().statusCode(400).body(containsString("That view does not exist"));
        ops.get(LIST + "?view=past-deadline&after=not-a-cursor").then().statusCode(400).body(containsString("That link to the next page is not valid"));
        ops.get(LIST + "?limit=1000").then().statusCode(400).body(containsString("The page size must be a whole number from 1 to 100."));
    }

    @Test
    void customersAreRefusedAndVisitorsSignInAndComeBack() {
        browser("alice").get(LIST).then().statusCode(403).body(containsString("The console is for staff."));
        browser("ops").get("/console").then().statusCode(303).header("Location", endsWith(LIST));

        CookieFilter visitor = new CookieFilter();
        given().filter(visitor).redirects().follow(false).get(LIST).then().statusCode(302).header("Location", endsWith("/login"));
        signIn(visitor, "ops", "ops").then().statusCode(302).header("Location", endsWith(LIST));
    }

    @Test
    void theListSpeaksChinese() {
        String page = browser("ops").request().header("Accept-Language", "zh-CN").get(LIST).asString();
        assertThat(page).contains("<html lang=\"zh-CN\">", "各状态订单数", "支付结果未知");
    }

    /**
     * Puts a new order in the view with SQL, sees the view list it and not a paid order, then takes away the rows the SQL
     * put there, which other tests would count.
     */
    private static void listedWhile(String view, String putIn, String takeAway) {
        String listed = newOrder("alice");
        String paid = newOrder("alice");
        act("alice", paid, "pay").then().statusCode(200);
        Orders.value(putIn, listed);
        try {
            assertThat(browser("ops").get(LIST + "?view=" + view).then().statusCode(200).extract().asString()).contains(row(listed))
                    .doesNotContain(row(paid));
        } finally {
            Orders.value(takeAway, listed);
        }
    }

    /** The link of an order's row in the list. */
    private static String row(String id) {
        return "<a href=\"/console/orders/" + id + "\">";
    }

    /** Gives the order a customer no other order has, and returns the name. */
    private static String customerOf(String id) {
        String customer = "console-list-" + UUID.randomUUID();
        Orders.value("UPDATE orders SET customer = ? WHERE id = ?::uuid RETURNING id", customer, id);
        return customer;
    }
}
