package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.asProviderClient;
import static io.orderflow.support.Api.newOrder;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.Metrics;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** Reconciliation compares the provider's charges with our payments and gives back what no paid order accounts for. */
@QuarkusTest
@WithTestResource(TestServers.class)
class ReconciliationTest {

    private static final String UNKNOWN_CHARGES = "orders_reconciliation_mismatches_total{kind=\"unknown-charge\"}";

    @Test
    void aChargeNoPaymentAccountsForIsRefundedAndCounted() {
        String paid = newOrder("alice");
        act("alice", paid, "pay").then().statusCode(200);
        String cancelled = newOrder("alice");
        act("alice", cancelled, "pay").then().statusCode(200);
        act("alice", cancelled, "cancel").then().statusCode(200);
        // A charge made at the provider under a key no payment of ours holds.
        String stray = "payment:" + paid + ":9";
        asProviderClient().contentType(ContentType.JSON).header("Idempotency-Key", stray)
                .body("{\"orderId\":\"" + paid + "\",\"amount\":\"25.00\",\"currency\":\"CNY\"}")
                .post("/sandbox/payments/charges").then().statusCode(201);

        double unknownCharges = Metrics.value(UNKNOWN_CHARGES);
        Response report = run();
        assertThat(report.<List<Map<String, Object>>>path("mismatches"))
                .singleElement().satisfies(mismatch -> {
                    assertThat(mismatch).containsEntry("kind", "unknown-charge").containsEntry("chargeKey", stray)
                            .containsEntry("action", "refund queued");
                });
        assertThat(Metrics.value(UNKNOWN_CHARGES)).isEqualTo(unknownCharges + 1);

        await().atMost(Duration.ofSeconds(10)).until(() -> Ledger.of(paid).refunds() == 1);
        Response again = run();
        assertThat(again.<List<?>>path("mismatches")).isEmpty();
        assertThat(again.<Integer>path("refunded")).isGreaterThanOrEqualTo(2);
        Ledger ledger = Ledger.of(paid);
        assertThat(ledger.charges()).isEqualTo(2);
        assertThat(ledger.refunds()).as("only the stray charge went back").isEqualTo(1);
        assertThat(Ledger.of(cancelled).refunds()).isEqualTo(1);
        as("alice").get("/orders/{id}", paid).then().body("status", equalTo("paid"));
    }

    @Test
    void theLastReportIsForStaff() {
        run();
        as("ops").get("/payments/reconciliation").then().statusCode(200)
                .body("until", org.hamcrest.Matchers.notNullValue());
        as("alice").get("/payments/reconciliation").then().statusCode(403);
        as("alice").post("/payments/reconciliation").then().statusCode(403);
    }

    @Test
    void theSandboxListsChargesByTimeWindow() {
        String id = newOrder("bob");
        Instant before = Instant.now().minusSeconds(1);
        act("bob", id, "pay").then().statusCode(200);

        asProviderClient().queryParam("since", before.toString()).queryParam("limit", 1000).get("/sandbox/payments/charges").then()
                .statusCode(200)
                .body("items.findAll { it.orderId == '" + id + "' }.size()", equalTo(1));
        asProviderClient().queryParam("since", Instant.now().plusSeconds(60).toString()).get("/sandbox/payments/charges").then()
                .statusCode(200)
                .body("items.size()", equalTo(0));
        asProviderClient().queryParam("since", "yesterday").get("/sandbox/payments/charges").then().statusCode(400);
    }

    private static Response run() {
        Response report = as("ops").post("/payments/reconciliation");
        report.then().statusCode(200);
        return report;
    }
}
