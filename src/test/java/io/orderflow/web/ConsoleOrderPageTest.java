package io.orderflow.web;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.SignInForm.signIn;
import static io.orderflow.web.WebCheckoutTest.browser;
import static io.orderflow.web.WebCheckoutTest.command;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.orderflow.support.TestServers;
import io.orderflow.support.Orders;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;

/**
 * An order in the staff console: its whole story on one timeline (placed, paid with its provider key, each message the
 * outbox sent with its attempts and trace, shipped, the warehouse's receipt), and the actions staff may take now, each a
 * form that is safe to submit twice. Customers are refused; a visitor signs in and comes back to the order asked for.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class ConsoleOrderPageTest {

    @Test
    void staffReadAPaidOrdersStoryShipItTwiceOverAndSeeTheShipmentOnTheTimeline() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        WebCheckoutTest.Browser ops = browser("ops");
        String page = "/console/orders/" + id;

        String before = ops.get(page).then().statusCode(200).header("Cache-Control", "no-store").extract().asString();
        assertThat(before).contains("<h2 id=\"timeline-heading\">Timeline</h2>", "Placed by alice: 25.00 CNY", "pay by alice: created → paid",
                "Payment attempt 1: SUCCESS, 25.00 CNY", "payment:" + id, "order-event message: DELIVERED");
        assertThat(before).as("what staff may do to a paid order").contains("/ship\"", "/cancel\"").doesNotContain("/deliver\"", "/pay\"");

        String ship = command(ops.get(page), "ship");
        ops.form().formParam("commandId", ship).post(page + "/ship").then().statusCode(303).header("Location", endsWith(page));
        // The same form again (a double click, the back button): the same outcome, nothing more.
        ops.form().formParam("commandId", ship).post(page + "/ship").then().statusCode(303).header("Location", endsWith(page));
        assertThat(Orders.value("SELECT count(*) FROM order_history WHERE order_id = ?::uuid AND event = 'ship'", id)).isEqualTo("1");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(ops.get(page).asString())
                .contains("ship by ops: paid → shipped", "shipment message: DELIVERED", "The warehouse accepted the shipment: "));
        assertThat(ops.get(page).asString()).contains("/deliver\"").doesNotContain("/ship\"").doesNotContain("notice");
    }

    @Test
    void aCancellationIsConfirmedFirstAndItsRefundJoinsTheStory() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        WebCheckoutTest.Browser ops = browser("ops");
        String page = "/console/orders/" + id;

        String cancel = command(ops.get(page), "cancel");
        String asked = ops.form().formParam("commandId", cancel).post(page + "/cancel").then().statusCode(200).extract().asString();
        assertThat(asked).contains("Cancel order", "Its payment is refunded to the customer").contains("value=\"" + cancel + "\"");
        assertThat(Orders.value("SELECT status FROM orders WHERE id = ?::uuid", id)).as("nothing done before the confirmation").isEqualTo("paid");

        ops.form().formParam("commandId", cancel).formParam("confirmed", "yes").post(page + "/cancel").then().statusCode(303);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(ops.get(page).asString())
                .contains("cancel by ops: paid → cancelled", "refund message: DELIVERED"));
    }

    @Test
    void anActionTheOrderNoLongerAllowsSaysSoAndDoesNothing() {
        String id = newOrder("alice");
        WebCheckoutTest.Browser ops = browser("ops");
        String page = "/console/orders/" + id;
        ops.get(page);

        String back = ops.form().formParam("commandId", "deliver-too-early").post(page + "/deliver").then().statusCode(303).extract()
                .header("Location");
        assertThat(ops.get(back).asString()).contains("invalid-transition: nothing was done");
        assertThat(Orders.value("SELECT status FROM orders WHERE id = ?::uuid", id)).isEqualTo("created");
    }

    @Test
    void customersAreRefusedTheConsoleAndVisitorsSignInAndComeBack() {
        String id = newOrder("alice");
        String page = "/console/orders/" + id;

        WebCheckoutTest.Browser alice = browser("alice");
        alice.get(page).then().statusCode(403).contentType(containsString("text/html")).body(containsString("The console is for staff."));
        alice.get("/checkout");
        alice.form().formParam("commandId", "alice-ships").post(page + "/ship").then().statusCode(403);
        assertThat(Orders.value("SELECT status FROM orders WHERE id = ?::uuid", id)).isEqualTo("created");

        CookieFilter visitor = new CookieFilter();
        given().filter(visitor).redirects().follow(false).get(page).then().statusCode(302).header("Location", endsWith("/login"));
        signIn(visitor, "ops", "ops").then().statusCode(302).header("Location", endsWith(page));
    }

    @Test
    void theConsoleSpeaksChinese() {
        String id = newOrder("alice");
        WebCheckoutTest.Browser ops = browser("ops");
        Response page = ops.request().header("Accept-Language", "zh-CN").get("/console/orders/" + id);
        assertThat(page.asString()).contains("<html lang=\"zh-CN\">", "时间线", "alice 下单：");
    }
}
