package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.asProviderClient;
import static io.orderflow.support.Api.newOrder;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.support.FakeProviders.Reply;
import io.orderflow.support.FakeProviders;
import io.orderflow.support.Ledger;
import io.orderflow.support.Metrics;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * The payment provider's answers read as a payments engineer reads a real card API's: a charge counts only
 * when it succeeded for the amount and currency asked for; "processing", an unreadable answer and any
 * failure that does not say nothing was done are unknown outcomes, settled under the same key; a charge
 * that waits for the customer's authentication (3-D Secure) is not a payment yet. The provider is the app's
 * sandbox behind WireMock, which answers as a test scripts; every scenario counts the money at the end.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
@WithTestResource(FakeProviders.class)
class RealProviderAnswersTest {

    private static final String CHARGES = "/payments/charges";
    private static final String REFUNDS = "/payments/refunds";
    private static final String WRONG_AMOUNTS = "orders_payments_total{outcome=\"wrong-amount\"}";
    private static final String FOREIGN_CHARGES = "orders_reconciliation_mismatches_total{kind=\"foreign\"}";

    @Inject
    PaymentRecovery recovery;

    @BeforeEach
    void theSandboxAnswersWhatIsNotScripted() {
        FakeProviders.forwardTo(URI.create("http://127.0.0.1:" + RestAssured.port + "/sandbox"));
    }

    @AfterEach
    void providersAnswerNormally() {
        FakeProviders.clearScripts();
    }

    @Test
    void aChargeStillProcessingIsNoPaymentUntilTheProviderSaysItSucceeded() {
        String id = newOrder("alice");
        FakeProviders.script(CHARGES, Reply.json(200, "{\"key\":\"payment:" + id + ":1\",\"status\":\"processing\"}"));
        String key = UUID.randomUUID().toString();

        pay(id, key, null).then().statusCode(502).body("code", equalTo("payment-provider-unavailable"));
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));
        assertThat(paymentStatus(id)).isEqualTo("PROCESSING");

        // The retry re-sends the same attempt; the provider has finished it meanwhile.
        pay(id, key, null).then().statusCode(200).body("status", equalTo("paid"));
        assertThat(chargeKeys(id)).containsOnly("payment:" + id + ":1");
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.refunds()).isZero();
    }

    @Test
    void anAnswerWithoutAStatusOrThatIsNotJsonIsAnUnknownOutcomeNeverAPayment() {
        String id = newOrder("alice");
        FakeProviders.script(CHARGES, Reply.json(200, "{}"), Reply.json(201, "not json"));

        act("alice", id, "pay").then().statusCode(502).body("code", equalTo("payment-provider-unavailable"));
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));

        // The next pay re-sends the attempt: an answer that is not JSON is retried under the key until one can be read.
        act("alice", id, "pay").then().statusCode(200).body("status", equalTo("paid"));
        assertThat(FakeProviders.calls(CHARGES, "payment:" + id + ":1")).hasSize(3);
        assertThat(chargeKeys(id)).containsOnly("payment:" + id + ":1");
        assertThat(Ledger.of(id).charges()).isEqualTo(1);
    }

    @Test
    void aTimeoutStatusAfterTheChargeWasTakenIsRetriedUnderTheSameKeyAndChargesOnce() {
        String id = newOrder("alice");
        // A balancer forwarded the charge, the provider took the money, and the client was answered 408 or 499.
        chargeAtTheProvider(id, 1, "25.00").then().statusCode(201);
        FakeProviders.script(CHARGES, Reply.status(408), Reply.status(499), Reply.status(425));

        act("alice", id, "pay").then().statusCode(200).body("status", equalTo("paid"));
        assertThat(FakeProviders.calls(CHARGES, "payment:" + id + ":1")).hasSize(4);
        assertThat(chargeKeys(id)).containsOnly("payment:" + id + ":1");
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.refunds()).isZero();
    }

    @Test
    void aTimeoutStatusThatOutlastsTheRetriesLeavesTheAttemptOpenAndTheNextPayReSendsIt() {
        String id = newOrder("alice");
        chargeAtTheProvider(id, 1, "25.00").then().statusCode(201);
        FakeProviders.outage(CHARGES, Reply.status(408));

        act("alice", id, "pay").then().statusCode(502).body("code", equalTo("payment-provider-unavailable"));
        assertThat(paymentStatus(id)).as("a 408 is not a decline").isEqualTo("PROCESSING");
        FakeProviders.endScript(CHARGES);

        // Another pay, under another Idempotency-Key, even naming another card: the open attempt is re-sent as it was.
        pay(id, UUID.randomUUID().toString(), "pm_card_chargeDeclined").then().statusCode(200).body("status", equalTo("paid"));
        assertThat(chargeKeys(id)).containsOnly("payment:" + id + ":1");
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.refunds()).isZero();
    }

    @Test
    void aChargeOfAnotherAmountIsGivenBackAndTheOrderCanBePaidAgain() {
        String id = newOrder("alice");
        FakeProviders.script(CHARGES, Reply.json(200, "{\"key\":\"payment:" + id + ":1\",\"reference\":\"ch_short_" + id
                + "\",\"status\":\"succeeded\",\"amount\":\"2.50\",\"currency\":\"CNY\"}"));
        FakeProviders.script(REFUNDS, Reply.json(201, "{\"status\":\"succeeded\",\"reference\":\"re_short\"}"));

        double wrongAmounts = Metrics.value(WRONG_AMOUNTS);
        act("alice", id, "pay").then().statusCode(502).body("code", equalTo("payment-provider-error"));
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));
        assertThat(paymentStatus(id)).isEqualTo("FAILURE");
        String refundKey = "refund:payment:" + id + ":1";
        await().atMost(Duration.ofSeconds(10)).until(() -> FakeProviders.calls(REFUNDS, refundKey).size() == 1);
        assertThat(FakeProviders.bodies(REFUNDS, refundKey)).singleElement().asString()
                .contains("\"amount\":\"2.50\"").contains("\"charge\":\"ch_short_" + id + "\"");
        assertThat(Metrics.value(WRONG_AMOUNTS)).isEqualTo(wrongAmounts + 1);

        act("alice", id, "pay").then().statusCode(200).body("status", equalTo("paid"));
        assertThat(chargeKeys(id)).containsExactly("payment:" + id + ":1", "payment:" + id + ":2");
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).as("the second attempt's charge, at the sandbox").isEqualTo(1);
        assertThat(FakeProviders.calls(REFUNDS, "refund:" + id)).as("the kept charge is not refunded").isEmpty();
    }

    @Test
    void aChargeThatNeedsTheCustomersAuthenticationIsPaidOnlyOnceTheyApprove() {
        String id = newOrder("alice");
        String key = UUID.randomUUID().toString();

        Response accepted = pay(id, key, "pm_card_authenticationRequired");
        accepted.then().statusCode(202).body("id", equalTo(id)).body("status", equalTo("created"))
                .body("nextAction.type", equalTo("redirect")).body("nextAction.url", startsWith("/sandbox/payments/authenticate/charge_"));
        assertThat(Ledger.of(id).charges()).as("nothing is charged before the authentication").isZero();
        // A retry with the key answers the same 202.
        pay(id, key, "pm_card_authenticationRequired").then().statusCode(202).header("Idempotent-Replayed", "true");

        String page = accepted.path("nextAction.url");
        RestAssured.given().get(page).then().statusCode(200).body(containsString("Approve the payment"));
        RestAssured.given().redirects().follow(false).contentType(ContentType.URLENC).formParam("answer", "approve").post(page).then()
                .statusCode(303).header("Location", endsWith("/checkout/orders/" + id));

        recovery.recover();

        as("alice").get("/orders/{id}", id).then().body("status", equalTo("paid"));
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.refunds()).isZero();
        RestAssured.given().get(page).then().statusCode(404);
    }

    @Test
    void aFailedAuthenticationIsADeclineAndTheOrderMayBePaidWithAnotherCard() {
        String id = newOrder("alice");
        String page = pay(id, UUID.randomUUID().toString(), "pm_card_authenticationRequired").then().statusCode(202).extract()
                .path("nextAction.url");

        RestAssured.given().redirects().follow(false).contentType(ContentType.URLENC).formParam("answer", "fail").post(page).then()
                .statusCode(303);
        recovery.recover();

        assertThat(paymentStatus(id)).isEqualTo("FAILURE");
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));
        pay(id, UUID.randomUUID().toString(), "pm_card_visa").then().statusCode(200).body("status", equalTo("paid"));
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(chargeKeys(id)).containsExactly("payment:" + id + ":1", "payment:" + id + ":2");
    }

    @Test
    void anAuthenticationNeverCompletedIsVoidedPastTheProcessingHorizonAndChargesNothing() {
        String id = newOrder("alice");
        String page = pay(id, UUID.randomUUID().toString(), "pm_card_authenticationRequired").then().statusCode(202).extract()
                .path("nextAction.url");
        // The customer walked away; the charge was sent longer ago than orders.payments.processing-horizon (10 minutes).
        Orders.execute("UPDATE payments SET sent_at = now() - interval '11 minutes' WHERE order_id = '" + UUID.fromString(id) + "'");

        recovery.recover();

        assertThat(paymentStatus(id)).isEqualTo("FAILURE");
        RestAssured.given().get(page).then().statusCode(404);
        RestAssured.given().redirects().follow(false).contentType(ContentType.URLENC).formParam("answer", "approve").post(page).then()
                .statusCode(404);
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isZero();
        assertThat(ledger.refunds()).isZero();
    }

    @Test
    void reconciliationRefundsOnlyMoneyThisDeploymentTookAndReportsTheRest() throws Exception {
        String paid = newOrder("alice");
        act("alice", paid, "pay").then().statusCode(200);
        String declined = newOrder("alice");
        pay(declined, UUID.randomUUID().toString(), "pm_card_chargeDeclined").then().statusCode(402);
        String paidAmount = Orders.value("SELECT amount FROM payments WHERE order_id = ?", paid);
        List<Map<String, Object>> listed = List.of(
                charge("payment:" + paid + ":1", "fake-payment:" + paid + ":1", "succeeded", paid, paidAmount, null),
                charge("payment:" + declined + ":1", "ch_declined_" + declined, "failed", declined, "25.00", null),
                charge("pi_3Other", "ch_other_shop", "succeeded", null, "99.00", "other-shop"),
                charge("payment:" + paid + ":7", "ch_other_deployment", "succeeded", paid, "25.00", "other-shop"),
                charge("payment:" + paid + ":1", "fake-payment:" + paid + ":1-again", "succeeded", paid, "1.00", null));
        FakeProviders.script(CHARGES, Reply.json(200, new ObjectMapper().writeValueAsString(Map.of("items", listed))));

        double foreign = Metrics.value(FOREIGN_CHARGES);
        Response report = as("ops").post("/payments/reconciliation");

        report.then().statusCode(200).body("charges", equalTo(5)).body("matched", equalTo(1)).body("notCharged", equalTo(1));
        List<Map<String, Object>> mismatches = report.path("mismatches");
        assertThat(mismatches).extracting(m -> m.get("kind") + " " + m.get("reference") + ": " + m.get("action")).containsExactlyInAnyOrder(
                "foreign ch_other_shop: none: not made by this deployment",
                "foreign ch_other_deployment: none: not made by this deployment",
                "wrong-amount fake-payment:" + paid + ":1-again: none: reported for staff; the payment was for 25.00 CNY");
        assertThat(Metrics.value(FOREIGN_CHARGES)).isEqualTo(foreign + 2);
        for (String charge : List.of("payment:" + paid + ":1", "payment:" + declined + ":1", "pi_3Other", "payment:" + paid + ":7")) {
            assertThat(FakeProviders.calls(REFUNDS, "refund:" + charge)).as("no refund of %s: money not taken, or not ours", charge).isEmpty();
        }
        assertThat(Orders.value("SELECT count(*) FROM outbox_all WHERE kind = 'refund' AND order_id IN (?, ?)", paid, declined)).isEqualTo("0");
        as("alice").get("/orders/{id}", paid).then().body("status", equalTo("paid"));
    }

    private static Response pay(String id, String key, String method) {
        var request = as("alice").header("Idempotency-Key", key);
        if (method != null) {
            request.contentType(ContentType.JSON).body("{\"paymentMethod\":\"" + method + "\"}");
        }
        return request.post("/orders/{id}/pay", id);
    }

    private static Response chargeAtTheProvider(String orderId, int attempt, String amount) {
        return asProviderClient().contentType(ContentType.JSON).header("Idempotency-Key", "payment:" + orderId + ":" + attempt)
                .body("{\"orderId\":\"" + orderId + "\",\"amount\":\"" + amount + "\",\"currency\":\"CNY\"}")
                .post("/sandbox/payments/charges");
    }

    private static Map<String, Object> charge(String key, String reference, String status, String orderId, String amount,
            String deployment) {
        Map<String, Object> charge = new LinkedHashMap<>();
        charge.put("key", key);
        charge.put("reference", reference);
        charge.put("status", status);
        charge.put("orderId", orderId);
        charge.put("amount", amount);
        charge.put("currency", "CNY");
        charge.put("refunded", false);
        if (deployment != null) {
            charge.put("metadata", Map.of("deployment", deployment));
        }
        return charge;
    }

    /** The keys the order's charge calls carried, in the order of its attempts. */
    private static List<String> chargeKeys(String orderId) {
        return Orders.values("SELECT idempotency_key FROM payments WHERE order_id = ? ORDER BY attempt", orderId);
    }

    private static String paymentStatus(String orderId) {
        return Orders.value("SELECT status FROM payments WHERE order_id = ? ORDER BY attempt DESC LIMIT 1", orderId);
    }
}
