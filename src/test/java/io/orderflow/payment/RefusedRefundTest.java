package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
import io.restassured.response.ValidatableResponse;

/**
 * A refund the provider refuses for good (already refunded by hand, charge too old) is not retried: it
 * leaves the line as {@code refund-refused} with the provider's reason, counted in
 * {@code orders_refunds_refused_total}, off the overdue gauge, and listed for staff at
 * {@code GET /payments/refunds/refused}, who settle it with {@code POST /payments/refunds/refused/{id}/settle}:
 * {@code refunded-outside} (the payment is refunded, nothing is sent) or {@code retry}. Answers that do
 * not say nothing was done (408, 429, 503) and a 401 (our API key, not the refund) keep it in line.
 * Charges go to the app's sandbox behind FakeProviders; refunds are answered as the test scripts.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
@WithTestResource(FakeProviders.class)
class RefusedRefundTest {

    private static final String REFUNDS = "/payments/refunds";
    private static final String REFUSED = "/payments/refunds/refused";
    private static final String ALREADY_REFUNDED = """
            {"error":{"type":"invalid_request_error","code":"charge_already_refunded","message":"Charge ch_x has already been refunded."}}""";

    @BeforeEach
    void theSandboxIsTheProvider() {
        FakeProviders.forwardTo(URI.create("http://127.0.0.1:" + RestAssured.port + "/sandbox"));
    }

    @AfterEach
    void providersAnswerNormally() {
        FakeProviders.clearScripts();
    }

    @Test
    void aRefundRefusedForGoodWaitsForStaffWhoSettleItAsRefundedOutsideTheEngine() {
        double refusedBefore = metric("orders_refunds_refused_total");
        String id = paidOrder();
        String key = "refund:" + id;
        FakeProviders.outage(REFUNDS, Reply.json(400, ALREADY_REFUNDED));

        act("alice", id, "cancel").then().statusCode(200).body("status", equalTo("cancelled"));

        long refundId = awaitRefused(id);
        as("alice").get("/orders/{id}", id).then().statusCode(200)
                .body("refund.state", equalTo("refused"))
                .body("refund.reason", equalTo("The provider refused the call with 400: charge_already_refunded: Charge ch_x has already been refunded."));
        as("ops").get(REFUSED).then().statusCode(200)
                .body("find { it.orderId == '" + id + "' }.refundKey", equalTo(key))
                .body("find { it.orderId == '" + id + "' }.charge", equalTo(paid(id, "channel_transaction_id")))
                .body("find { it.orderId == '" + id + "' }.amount", equalTo(paid(id, "CAST(amount AS numeric(19, 2))")))
                .body("find { it.orderId == '" + id + "' }.currency", equalTo(paid(id, "currency")))
                .body("find { it.orderId == '" + id + "' }.reason",
                        equalTo("The provider refused the call with 400: charge_already_refunded: Charge ch_x has already been refunded."))
                .body("find { it.orderId == '" + id + "' }.state", equalTo("refund-refused"))
                .body("find { it.orderId == '" + id + "' }.attempts", equalTo(1));
        assertThat(metric("orders_refunds_refused_total") - refusedBefore).as("refunds refused").isEqualTo(1.0);

        // Past refund-overdue-after (300 ms) and the gauge's one-second count, a refund in line would be overdue, and retried.
        await().atMost(Duration.ofSeconds(10)).until(() -> "t".equals(Orders.value(
                "SELECT now() - created_at > interval '1500 milliseconds' FROM outbox WHERE idempotency_key = ?", key)));
        assertThat(metric("orders_refunds_overdue")).as("overdue refunds").isZero();
        assertThat(FakeProviders.calls(REFUNDS, key)).as("refund calls: a definite refusal is not repeated").hasSize(1);

        // Reconciliation finds the charge being dealt with: it queues no refund of its own, however often it runs.
        as("ops").post("/payments/reconciliation").then().statusCode(200);
        as("ops").post("/payments/reconciliation").then().statusCode(200);
        assertThat(Orders.value("SELECT count(*) FROM outbox_all WHERE kind = 'refund' AND order_id = ?", id)).isEqualTo("1");

        settle(refundId, "refunded-outside", "Refunded by hand in the provider's dashboard on the customer's call.")
                .body("state", equalTo("refunded-outside")).body("orderId", equalTo(id)).body("refundKey", equalTo(key));

        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("REFUNDED");
        as("alice").get("/orders/{id}", id).then().statusCode(200).body("refund.state", equalTo("made"));
        assertThat(Orders.value("SELECT settled_by || ': ' || resolution FROM refund_settlements WHERE outbox_id = ?", String.valueOf(refundId)))
                .isEqualTo("ops: refunded-outside");
        as("ops").get(REFUSED).then().statusCode(200).body("orderId", not(hasItem(id)));
        settle(refundId, "refunded-outside", "again").body("state", equalTo("refunded-outside"));
        settle(refundId, "retry", "a retry of a settled refund changes nothing").body("state", equalTo("refunded-outside"));
        assertThat(FakeProviders.calls(REFUNDS, key)).as("refund calls after settling").hasSize(1);
        assertThat(Ledger.of(id).refunds()).as("refunds made by the provider").isZero();
        assertThat(metric("orders_refunds_refused_total") - refusedBefore).as("refunds refused").isEqualTo(1.0);

        // Staff said the money went back outside the engine: reconciliation takes their word and reports nothing of it.
        as("ops").post("/payments/reconciliation").then().statusCode(200).body("mismatches.orderId", not(hasItem(id)));
        assertThat(Orders.value("SELECT count(*) FROM outbox_all WHERE kind = 'refund' AND order_id = ?", id)).isEqualTo("1");
    }

    @Test
    void aRefusedRefundThatStaffRetryIsMadeOnceWhenTheProviderTakesIt() {
        String id = paidOrder();
        String key = "refund:" + id;
        FakeProviders.outage(REFUNDS, Reply.json(400, "{\"status\":\"rejected\",\"reason\":\"charge too old to refund\"}"));
        act("alice", id, "cancel").then().statusCode(200);
        long refundId = awaitRefused(id);
        as("ops").get(REFUSED).then().statusCode(200)
                .body("find { it.orderId == '" + id + "' }.reason", equalTo("The provider refused the call with 400: charge too old to refund"));

        FakeProviders.endScript(REFUNDS);
        settle(refundId, "retry", "The provider raised its age limit for this account.").body("state", equalTo("pending"));

        await().atMost(Duration.ofSeconds(10)).until(() -> "REFUNDED".equals(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)));
        assertThat(Ledger.of(id).refunds()).as("refunds made").isEqualTo(1);
        List<Integer> answered = FakeProviders.calls(REFUNDS, key).stream().map(FakeProviders.Call::status).toList();
        assertThat(answered).as("refund calls: refused, then made").hasSize(2).first().isEqualTo(400);
        assertThat(answered.get(1)).as("the refund call after the retry").isLessThan(300);
        as("ops").get(REFUSED).then().statusCode(200).body("orderId", not(hasItem(id)));
        settle(refundId, "retry", "again").body("state", equalTo("refunded"));
        assertThat(Ledger.of(id).refunds()).as("refunds made").isEqualTo(1);
    }

    /** 401 is about our API key, not this refund; the others may come after the refund was made: all stay in line. */
    @ParameterizedTest
    @ValueSource(ints = { 401, 408, 429, 503 })
    void aRefundAnsweredWithoutADefiniteRefusalStaysInLineAndIsMadeOnce(int status) {
        double refusedBefore = metric("orders_refunds_refused_total");
        String id = paidOrder();
        String key = "refund:" + id;
        FakeProviders.outage(REFUNDS, Reply.status(status));

        act("alice", id, "cancel").then().statusCode(200);

        await().atMost(Duration.ofSeconds(10)).until(() -> FakeProviders.calls(REFUNDS, key).size() >= 3);
        assertThat(Orders.value("SELECT status FROM outbox WHERE idempotency_key = ?", key)).isEqualTo("PENDING");
        as("ops").get(REFUSED).then().statusCode(200).body("orderId", not(hasItem(id)));
        assertThat(metric("orders_refunds_refused_total") - refusedBefore).as("refunds refused").isZero();

        FakeProviders.endScript(REFUNDS);

        await().atMost(Duration.ofSeconds(10)).until(() -> "REFUNDED".equals(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)));
        assertThat(Ledger.of(id).refunds()).as("refunds made").isEqualTo(1);
    }

    @Test
    void settlingIsForStaffWithAKnownRefundAndResolution() {
        as("alice").get(REFUSED).then().statusCode(403).contentType("application/problem+json").body("code", equalTo("forbidden"));
        as("alice").contentType(ContentType.JSON).body(Map.of("resolution", "retry")).post(REFUSED + "/1/settle").then()
                .statusCode(403).body("code", equalTo("forbidden"));
        given().get(REFUSED).then().statusCode(401);

        as("ops").contentType(ContentType.JSON).body(Map.of("resolution", "retry")).post(REFUSED + "/999999999/settle").then()
                .statusCode(404).contentType("application/problem+json").body("code", equalTo("not-found"));
        for (String body : List.of("{\"resolution\":\"refund-it\"}", "{\"note\":\"no resolution\"}", "{}", "null",
                "{\"resolution\":\"retry\",\"note\":\"" + "x".repeat(1001) + "\"}")) {
            as("ops").contentType(ContentType.JSON).body(body).post(REFUSED + "/1/settle").then()
                    .statusCode(400).contentType("application/problem+json").body("code", equalTo("validation-failed"));
        }
        as("ops").contentType(ContentType.JSON).body("{\"resolution\":").post(REFUSED + "/1/settle").then()
                .statusCode(400).contentType("application/problem+json").body("code", equalTo("malformed-json"));
        as("ops").contentType(ContentType.JSON).body(Map.of("resolution", "retry")).post(REFUSED + "/x/settle").then()
                .statusCode(404).contentType("application/problem+json");
    }

    /** A paid order of alice's: its charge is made by the sandbox. */
    private static String paidOrder() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        return id;
    }

    /** The id of the order's refund once it is listed as refused. */
    private static long awaitRefused(String orderId) {
        await().atMost(Duration.ofSeconds(10)).until(() -> as("ops").get(REFUSED).then().statusCode(200).extract()
                .<List<String>>path("orderId").contains(orderId));
        return as("ops").get(REFUSED).then().extract().<Number>path("find { it.orderId == '" + orderId + "' }.id").longValue();
    }

    private static ValidatableResponse settle(long refundId, String resolution, String note) {
        return as("ops").contentType(ContentType.JSON).body(Map.of("resolution", resolution, "note", note))
                .post(REFUSED + "/" + refundId + "/settle").then().statusCode(200);
    }

    /** A column of the order's successful payment, as text. */
    private static String paid(String orderId, String column) {
        return Orders.value("SELECT " + column + " FROM payments WHERE order_id = ? AND status = 'SUCCESS'", orderId);
    }

    /** A metric without labels as Prometheus scrapes it; it must be there from the start. */
    private static double metric(String name) {
        return Metrics.value(name);
    }
}
