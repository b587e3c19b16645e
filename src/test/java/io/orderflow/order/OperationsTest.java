package io.orderflow.order;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.newToken;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasKey;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Metrics;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@WithTestResource(TestServers.class)
class OperationsTest {

    @Test
    void readinessChecksPostgresqlAndRedis() {
        given().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItems("Database connections health check", "Redis connection health check"));
    }

    @Test
    void metricsCountTokens() {
        newToken("alice");
        Metrics.scrape().then()
                .statusCode(200)
                .body(containsString("orders_tokens_issued_total"));
    }

    @Test
    void metricsCountTransitionsByEventAndOutcome() {
        String id = newOrder("alice");
        act("alice", id, "cancel").then().statusCode(200);
        act("alice", id, "cancel").then().statusCode(200);
        act("alice", id, "pay").then().statusCode(409);
        Metrics.scrape().then()
                .statusCode(200)
                .body(containsString("orders_transitions_total{event=\"cancel\",outcome=\"applied\"}"))
                .body(containsString("orders_transitions_total{event=\"cancel\",outcome=\"repeated\"}"))
                .body(containsString("orders_transitions_total{event=\"pay\",outcome=\"rejected\"}"));
    }

    @Test
    void metricsCountIdempotencyKeysByOutcome() {
        String key = UUID.randomUUID().toString();
        as("alice").header("Idempotency-Key", key).post("/orders/token").then().statusCode(201);
        as("alice").header("Idempotency-Key", key).post("/orders/token").then().statusCode(201);
        as("alice").header("Idempotency-Key", key).contentType("application/json").body("{}").post("/orders/token").then().statusCode(422);
        Metrics.scrape().then()
                .statusCode(200)
                .body(containsString("orders_idempotency_requests_total{outcome=\"claimed\"}"))
                .body(containsString("orders_idempotency_requests_total{outcome=\"replay\"}"))
                .body(containsString("orders_idempotency_requests_total{outcome=\"mismatch\"}"));
    }

    @Test
    void theApiIsDescribed() {
        given().get("/q/openapi?format=json").then()
                .statusCode(200)
                .body("paths", hasKey("/orders/token"))
                .body("paths.'/orders'.post.responses", hasKey("201"))
                .body("paths.'/orders'.post.responses", hasKey("410"))
                .body("paths.'/orders/{id}/pay'.post.responses", hasKey("402"));
    }
}
