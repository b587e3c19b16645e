package io.orderflow.sandbox;

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
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * The sandbox stands in for a payment provider and a warehouse on a demo open to the internet: like a
 * real provider it takes its own secret API key (which the app's REST clients send) or a staff caller,
 * never an anonymous one or a customer, who would otherwise list every charge and refund it.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class SandboxAccessTest {

    @Test
    void strangersAndCustomersAreRefusedEverySandboxCall() {
        String id = newOrder("alice");
        List<Function<RequestSpecification, Response>> calls = calls(id);
        for (Function<RequestSpecification, Response> call : calls) {
            assertThat(call.apply(given()).statusCode()).as("anonymous").isEqualTo(401);
            assertThat(call.apply(given().header("Authorization", "Bearer sk_not_the_key")).statusCode()).as("a wrong key")
                    .isEqualTo(401);
            assertThat(call.apply(as("alice")).statusCode()).as("a customer").isEqualTo(403);
        }
        assertThat(Ledger.of(id).charges()).isZero();
        assertThat(Ledger.of(id).refunds()).isZero();
        assertThat(Ledger.of(id).shipments()).isZero();
    }

    @Test
    void staffAndTheProviderKeyMayCallTheSandbox() {
        for (RequestSpecification caller : List.of(as("ops"), asProviderClient())) {
            String id = newOrder("alice");
            String charge = charge(caller, id).then().statusCode(201).body("status", equalTo("succeeded")).extract().path("reference");
            given().spec(caller).get("/sandbox/payments/charges/payment:{id}:1", id).then().statusCode(200)
                    .body("reference", equalTo(charge));
            given().spec(caller).queryParam("since", Instant.now().minusSeconds(60).toString()).get("/sandbox/payments/charges")
                    .then().statusCode(200);
            given().spec(caller).contentType(ContentType.JSON).header("Idempotency-Key", "refund:" + id)
                    .body("{\"orderId\":\"" + id + "\",\"amount\":\"25.00\",\"currency\":\"CNY\",\"charge\":\"" + charge + "\"}")
                    .post("/sandbox/payments/refunds").then().statusCode(201);
            given().spec(caller).contentType(ContentType.JSON).body("{\"orderId\":\"" + id + "\"}")
                    .post("/sandbox/payments/charges/payment:{id}:2/void", id).then().statusCode(200).body("status", equalTo("voided"));
            given().spec(caller).contentType(ContentType.JSON).header("Idempotency-Key", "shipment:" + id)
                    .body("{\"orderId\":\"" + id + "\"}").post("/sandbox/warehouse/shipments").then().statusCode(201);
        }
    }

    @Test
    void theProviderKeyOpensNothingButTheSandbox() {
        asProviderClient().post("/orders/token").then().statusCode(401);
        asProviderClient().queryParam("orderId", newOrder("alice")).get("/sandbox/ledger").then().statusCode(403);
    }

    @Test
    void theAppPaysRefundsAndShipsThroughTheSandboxWithItsKey() {
        String refunded = newOrder("alice");
        act("alice", refunded, "pay").then().statusCode(200).body("status", equalTo("paid"));
        act("alice", refunded, "cancel").then().statusCode(200).body("status", equalTo("cancelled"));
        assertThat(Ledger.of(refunded).charges()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> Ledger.of(refunded).refunds() == 1);

        String shipped = newOrder("alice");
        act("alice", shipped, "pay").then().statusCode(200);
        act("ops", shipped, "ship").then().statusCode(200).body("status", equalTo("shipped"));
        await().atMost(Duration.ofSeconds(10)).until(() -> Ledger.of(shipped).shipments() == 1);
    }

    /** Every call of the sandbox's providers, for one order. */
    private static List<Function<RequestSpecification, Response>> calls(String id) {
        return List.of(
                caller -> charge(caller, id),
                caller -> given().spec(caller).get("/sandbox/payments/charges/payment:{id}:1", id),
                caller -> given().spec(caller).queryParam("since", "2026-01-01T00:00:00Z").get("/sandbox/payments/charges"),
                caller -> given().spec(caller).contentType(ContentType.JSON).body("{\"orderId\":\"" + id + "\"}")
                        .post("/sandbox/payments/charges/payment:{id}:9/void", id),
                caller -> given().spec(caller).contentType(ContentType.JSON).header("Idempotency-Key", "refund:" + id)
                        .body("{\"orderId\":\"" + id + "\",\"amount\":\"25.00\",\"currency\":\"CNY\",\"charge\":\"charge_x\"}")
                        .post("/sandbox/payments/refunds"),
                caller -> given().spec(caller).contentType(ContentType.JSON).header("Idempotency-Key", "shipment:" + id)
                        .body("{\"orderId\":\"" + id + "\"}").post("/sandbox/warehouse/shipments"));
    }

    private static Response charge(RequestSpecification caller, String id) {
        return given().spec(caller).contentType(ContentType.JSON).header("Idempotency-Key", "payment:" + id + ":1")
                .body("{\"orderId\":\"" + id + "\",\"amount\":\"25.00\",\"currency\":\"CNY\"}").post("/sandbox/payments/charges");
    }
}
