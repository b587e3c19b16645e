package io.orderflow.order;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.newToken;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasKey;

import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Metrics;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@WithTestResource(TestServers.class)
class OperationsTest {

    private static final String CANCEL_APPLIED = "orders_transitions_total{event=\"cancel\",outcome=\"applied\"}";
    private static final String CANCEL_REPEATED = "orders_transitions_total{event=\"cancel\",outcome=\"repeated\"}";
    private static final String PAY_REJECTED = "orders_transitions_total{event=\"pay\",outcome=\"rejected\"}";
    private static final String KEY_CLAIMED = "orders_idempotency_requests_total{outcome=\"claimed\"}";
    private static final String KEY_REPLAY = "orders_idempotency_requests_total{outcome=\"replay\"}";
    private static final String KEY_MISMATCH = "orders_idempotency_requests_total{outcome=\"mismatch\"}";

    @Test
    void readinessChecksPostgresqlAndRedis() {
        given().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItems("Database connections health check", "Redis connection health check"));
    }

    @Test
    void metricsCountTokens() {
        double issued = Metrics.value("orders_tokens_issued_total");
        newToken("alice");
        assertThat(Metrics.value("orders_tokens_issued_total")).isEqualTo(issued + 1);
    }

    @Test
    void metricsCountTransitionsByEventAndOutcome() {
        Map<String, Double> before = values(CANCEL_APPLIED, CANCEL_REPEATED, PAY_REJECTED);
        String id = newOrder("alice");
        act("alice", id, "cancel").then().statusCode(200);
        act("alice", id, "cancel").then().statusCode(200);
        act("alice", id, "pay").then().statusCode(409);
        assertThat(values(CANCEL_APPLIED, CANCEL_REPEATED, PAY_REJECTED)).allSatisfy((series, value) -> assertThat(value).as(series)
                .isEqualTo(before.get(series) + 1));
    }

    @Test
    void metricsCountIdempotencyKeysByOutcome() {
        Map<String, Double> before = values(KEY_CLAIMED, KEY_REPLAY, KEY_MISMATCH);
        String key = UUID.randomUUID().toString();
        as("alice").header("Idempotency-Key", key).post("/orders/token").then().statusCode(201);
        as("alice").header("Idempotency-Key", key).post("/orders/token").then().statusCode(201);
        as("alice").header("Idempotency-Key", key).contentType("application/json").body("{}").post("/orders/token").then().statusCode(422);
        assertThat(values(KEY_CLAIMED, KEY_REPLAY, KEY_MISMATCH)).allSatisfy((series, value) -> assertThat(value).as(series)
                .isEqualTo(before.get(series) + 1));
    }

    private static Map<String, Double> values(String... series) {
        return Stream.of(series).collect(Collectors.toMap(Function.identity(), Metrics::value));
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
