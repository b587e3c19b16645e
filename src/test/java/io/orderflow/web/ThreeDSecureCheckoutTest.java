package io.orderflow.web;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.web.WebCheckoutTest.browser;
import static io.orderflow.web.WebCheckoutTest.command;
import static io.orderflow.web.WebCheckoutTest.placeNotebook;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.Metrics;
import io.orderflow.support.Orders;
import io.orderflow.support.ProviderEventsOn;
import io.orderflow.support.TestServers;
import io.orderflow.web.WebCheckoutTest.Browser;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * With the provider's notifications on, as in dev and demo (each sent twice, out of order): a card that
 * needs 3-D Secure takes the customer from the order page to the issuer's page and back, and the order is
 * paid by the provider's notification, with no recovery run; repeated notifications double nothing.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
@TestProfile(ProviderEventsOn.class)
class ThreeDSecureCheckoutTest {

    private static final String REPEATED_CHARGES = "orders_payments_provider_events_total{outcome=\"repeated\",type=\"charge.succeeded\"}";

    @Test
    void aCardThatNeedsAuthenticationSendsTheCustomerToTheIssuerAndBackAndTheProvidersNewsPaysTheOrder() {
        Browser alice = browser("alice");
        String page = placeNotebook(alice);
        String id = page.substring(page.lastIndexOf('/') + 1);
        Response shown = alice.get(page);
        shown.then().body(containsString("<option value=\"pm_card_authenticationRequired\">"));

        String issuer = alice.form().formParam("commandId", command(shown, "pay")).formParam("paymentMethod", "pm_card_authenticationRequired")
                .post(page + "/pay").then().statusCode(303).extract().header("Location");
        assertThat(issuer).contains("/sandbox/payments/authenticate/charge_");
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));
        assertThat(Ledger.of(id).charges()).isZero();

        alice.request().get(issuer).then().statusCode(200).body(containsString("Approve the payment"));
        alice.request().contentType(ContentType.URLENC).formParam("answer", "approve").post(issuer).then().statusCode(303)
                .header("Location", endsWith(page));

        await().atMost(Duration.ofSeconds(10)).until(() -> "paid".equals(as("alice").get("/orders/{id}", id).path("status")));
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.refunds()).isZero();
        alice.request().get(issuer).then().statusCode(404);
    }

    @Test
    void chargesAndRefundsNotifiedTwiceAndOutOfOrderAreEachSettledOnce() {
        Instant start = Instant.now();
        double repeatedCharges = Metrics.value(REPEATED_CHARGES);
        List<String> paid = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String id = newOrder(i % 2 == 0 ? "alice" : "bob");
            act(i % 2 == 0 ? "alice" : "bob", id, "pay").then().statusCode(200);
            paid.add(id);
        }
        List<String> cancelled = paid.subList(3, 5);
        cancelled.forEach(id -> act("ops", id, "cancel").then().statusCode(200));

        // Every charge and refund notified (5 + 2 events, each sent twice), and each event id received once.
        await().atMost(Duration.ofSeconds(15)).until(() -> "7".equals(Orders.value(
                "SELECT count(*) FROM provider_events WHERE type IN ('charge.succeeded', 'charge.refunded') AND received_at >= CAST(? AS timestamptz)",
                start.toString())));
        await().atMost(Duration.ofSeconds(15)).until(() -> Metrics.value(REPEATED_CHARGES) > repeatedCharges);

        for (String id : paid) {
            Ledger ledger = Ledger.of(id);
            assertThat(ledger.charges()).as("charges of %s", id).isEqualTo(1);
            assertThat(ledger.refunds()).as("refunds of %s", id).isEqualTo(cancelled.contains(id) ? 1 : 0);
            assertThat(Orders.value("SELECT count(*) FROM order_history WHERE order_id = ? AND event = 'pay'", id)).isEqualTo("1");
            assertThat(Orders.value("SELECT string_agg(status, ',') FROM payments WHERE order_id = ?", id))
                    .isEqualTo(cancelled.contains(id) ? "REFUNDED" : "SUCCESS");
        }
    }
}
