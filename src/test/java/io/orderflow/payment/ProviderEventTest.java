package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.asProviderClient;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.webhook.EventSignature;
import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * POST /payments/provider-events: the provider's signed notifications settle payments and refunds sooner
 * than recovery would, by the same rules, whatever their order and however often they come. The test
 * plays the provider: it signs each notification with the shared secret.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class ProviderEventTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    PaymentStore payments;

    @Test
    void aChargeSucceededNotificationPaysTheOrderWhoseRequestGaveUpOnceHoweverOftenItComes() throws Exception {
        String id = newOrder("alice");
        abandonedPayment(id);
        Map<String, Object> charge = chargeAtTheProvider(id);
        String event = event("charge.succeeded", charge);

        notify(event).then().statusCode(200).body("received", equalTo(true));
        notify(event).then().statusCode(200);
        // The provider sends the same news again under a new event id: the payment is settled already.
        notify(event("charge.succeeded", charge)).then().statusCode(200);

        as("alice").get("/orders/{id}", id).then().body("status", equalTo("paid")).body("version", equalTo(1));
        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("SUCCESS");
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.refunds()).isZero();
        assertThat(Orders.value("SELECT count(*) FROM order_history WHERE order_id = ? AND event = 'pay'", id)).isEqualTo("1");
    }

    @Test
    void aLateSuccessForAnOrderCancelledMeanwhileIsRefundedOnce() throws Exception {
        String id = newOrder("alice");
        abandonedPayment(id);
        Map<String, Object> charge = chargeAtTheProvider(id);
        act("alice", id, "cancel").then().statusCode(200);

        notify(event("charge.succeeded", charge)).then().statusCode(200);
        notify(event("charge.succeeded", charge)).then().statusCode(200);

        as("alice").get("/orders/{id}", id).then().body("status", equalTo("cancelled"));
        org.awaitility.Awaitility.await().until(() -> Ledger.of(id).refunds() == 1);
        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("REFUNDED");
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.refundCalls()).isEqualTo(1);
    }

    @Test
    void notificationsInAnyOrderEndAsTheProviderLeftTheMoney() throws Exception {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        act("alice", id, "cancel").then().statusCode(200);
        org.awaitility.Awaitility.await().until(() -> Ledger.of(id).refunds() == 1);
        Map<String, Object> charge = lookUp("payment:" + id + ":1");

        // The refund's news first, then the charge's older news: nothing moves back.
        notify(event("charge.refunded", charge)).then().statusCode(200);
        charge.put("refunded", false);
        notify(event("charge.succeeded", charge)).then().statusCode(200);

        as("alice").get("/orders/{id}", id).then().body("status", equalTo("cancelled"));
        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("REFUNDED");
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.refunds()).isEqualTo(1);
    }

    @Test
    void aFailedChargeNotificationLetsTheNextPayStartAFreshAttempt() throws Exception {
        String id = newOrder("alice");
        abandonedPayment(id);
        Map<String, Object> failed = new LinkedHashMap<>(Map.of("key", "payment:" + id + ":1", "status", "failed", "orderId", id));

        notify(event("charge.failed", failed)).then().statusCode(200);

        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("FAILURE");
        act("alice", id, "pay").then().statusCode(200).body("status", equalTo("paid"));
        assertThat(Orders.value("SELECT idempotency_key FROM payments WHERE status = 'SUCCESS' AND order_id = ?", id))
                .isEqualTo("payment:" + id + ":2");
        assertThat(Ledger.of(id).charges()).isEqualTo(1);
    }

    @Test
    void aNotificationWithoutAValidFreshSignatureIsRefusedAndDoesNothing() throws Exception {
        String id = newOrder("alice");
        abandonedPayment(id);
        String event = event("charge.succeeded", chargeAtTheProvider(id));
        byte[] body = event.getBytes(StandardCharsets.UTF_8);
        String secret = ConfigProvider.getConfig().getValue("orders.payments.events.secret", String.class);

        send(event, null).then().statusCode(400).body("code", equalTo("invalid-signature"));
        send(event, EventSignature.sign("not-the-secret", Instant.now(), body)).then().statusCode(400).body("code", equalTo("invalid-signature"));
        send(event, EventSignature.sign(secret, Instant.now().minusSeconds(600), body)).then().statusCode(400)
                .body("detail", org.hamcrest.Matchers.containsString("tolerance"));
        String tampered = event.replace("succeeded", "succeeded ");
        send(tampered, EventSignature.sign(secret, Instant.now(), body)).then().statusCode(400).body("code", equalTo("invalid-signature"));
        send("{\"type\":\"charge.succeeded\"}", EventSignature.sign(secret, Instant.now(), "{\"type\":\"charge.succeeded\"}".getBytes(StandardCharsets.UTF_8)))
                .then().statusCode(400).body("code", equalTo("validation-failed"));

        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));
        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("PROCESSING");
    }

    /** A pay request that claimed the payment, sent the charge and gave up before the answer (its lease ran out). */
    private void abandonedPayment(String id) {
        assertThat(payments.claimToCharge(UUID.fromString(id), new BigDecimal("25.00"), "CNY", "pm_card_visa")).isPresent();
        Orders.execute("UPDATE payments SET claimed_until = now() - interval '1 second' WHERE order_id = '" + UUID.fromString(id) + "'");
    }

    /** The charge the abandoned request's call made at the provider, as the provider's lookup shows it. */
    private static Map<String, Object> chargeAtTheProvider(String id) {
        asProviderClient().contentType(ContentType.JSON).header("Idempotency-Key", "payment:" + id + ":1")
                .body("{\"orderId\":\"" + id + "\",\"amount\":\"25.00\",\"currency\":\"CNY\"}")
                .post("/sandbox/payments/charges").then().statusCode(201);
        return lookUp("payment:" + id + ":1");
    }

    private static Map<String, Object> lookUp(String key) {
        return new LinkedHashMap<>(asProviderClient().get("/sandbox/payments/charges/{key}", key).then().statusCode(200).extract()
                .jsonPath().getMap("$"));
    }

    private static String event(String type, Map<String, Object> charge) throws Exception {
        return JSON.writeValueAsString(Map.of("id", "evt_" + UUID.randomUUID(), "type", type, "data", charge));
    }

    private static Response notify(String event) {
        String secret = ConfigProvider.getConfig().getValue("orders.payments.events.secret", String.class);
        return send(event, EventSignature.sign(secret, Instant.now(), event.getBytes(StandardCharsets.UTF_8)));
    }

    private static Response send(String body, String signature) {
        var call = request().contentType(ContentType.JSON).body(body.getBytes(StandardCharsets.UTF_8));
        if (signature != null) {
            call.header(EventSignature.HEADER, signature);
        }
        return call.post("/payments/provider-events");
    }
}
