package io.orderflow.shared.http;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrderWithKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.orderflow.payment.Payment;
import io.orderflow.support.Api;
import io.orderflow.support.HeldProviderKey;
import io.orderflow.support.Metrics;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * Past its limit the service sheds what it cannot serve: 503 with Retry-After and a problem detail, having done
 * nothing, so the same request sent again takes effect once. Here the limit is two requests at once and one may
 * wait; two payments whose provider is held fill it.
 */
@QuarkusTest
@TestProfile(LoadShedderTest.TwoAtOnce.class)
@WithTestResource(TestServers.class)
class LoadShedderTest {

    private static final Duration MAX_WAIT = Duration.ofSeconds(3);

    public static class TwoAtOnce implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orders.overload.initial-limit", "2", "orders.overload.min-limit", "2", "orders.overload.max-limit", "2",
                    "orders.overload.max-waiting", "1", "orders.overload.max-wait", MAX_WAIT.toMillis() + "MS");
        }
    }

    @Test
    void pastTheLimitAndTheLineARequestIsRefusedAtOnceHavingDoneNothing() {
        String waitingToken = newToken("alice");
        String refusedToken = newToken("alice");
        String waitingKey = UUID.randomUUID().toString();
        String refusedKey = UUID.randomUUID().toString();
        double shedBefore = Metrics.value("orders_http_shed_total");

        List<String> paid = List.of(newOrder("alice"), newOrder("alice"));
        List<CompletableFuture<Response>> pays;
        CompletableFuture<Response> waiting;
        try (HeldProviderKey first = HeldProviderKey.charge(Payment.keyFor(UUID.fromString(paid.get(0)), 1));
                HeldProviderKey second = HeldProviderKey.charge(Payment.keyFor(UUID.fromString(paid.get(1)), 1))) {
            pays = paid.stream().map(id -> CompletableFuture.supplyAsync(() -> Api.act("alice", id, "pay"))).toList();
            await().atMost(Duration.ofSeconds(10)).until(() -> Metrics.value("orders_http_in_flight") == 2);

            waiting = CompletableFuture.supplyAsync(() -> placeOrderWithKey("alice", waitingKey, waitingToken, Api.ORDER));
            await().atMost(Duration.ofSeconds(10)).until(() -> Metrics.value("orders_http_waiting") == 1);

            placeOrderWithKey("alice", refusedKey, refusedToken, Api.ORDER).then().statusCode(503)
                    .header("Retry-After", "1")
                    .contentType("application/problem+json")
                    .body("code", equalTo("service-unavailable"))
                    .body("status", equalTo(503));
            as("alice").get("/orders/{id}", paid.get(0)).then().statusCode(503).header("Retry-After", "1");

            // What never waits: order tokens (Redis only) and the health checks.
            as("alice").post("/orders/token").then().statusCode(201);
            as("ops").get("/q/health/ready").then().statusCode(200);
            assertThat(Metrics.value("orders_http_shed_total")).isEqualTo(shedBefore + 2);
            assertThat(Orders.countForToken(refusedToken)).isZero();
        }

        pays.forEach(pay -> pay.join().then().statusCode(200).body("status", equalTo("paid")));
        // The request in line got the first place that came free.
        waiting.join().then().statusCode(201);
        assertThat(Orders.countForToken(waitingToken)).isOne();

        // The refused one claimed neither its key nor its token: sent again, it is taken, once.
        placeOrderWithKey("alice", refusedKey, refusedToken, Api.ORDER).then().statusCode(201);
        placeOrderWithKey("alice", refusedKey, refusedToken, Api.ORDER).then().statusCode(201).header("Idempotent-Replayed", "true");
        assertThat(Orders.countForToken(refusedToken)).isOne();
        assertThat(Metrics.value("orders_http_in_flight")).isZero();
    }

    @Test
    void aRequestWaitingLongerThanMaxWaitIsRefusedHavingDoneNothing() {
        String token = newToken("alice");
        String key = UUID.randomUUID().toString();
        List<String> held = List.of(newOrder("alice"), newOrder("alice"));
        List<CompletableFuture<Response>> pays;
        try (HeldProviderKey first = HeldProviderKey.charge(Payment.keyFor(UUID.fromString(held.get(0)), 1));
                HeldProviderKey second = HeldProviderKey.charge(Payment.keyFor(UUID.fromString(held.get(1)), 1))) {
            pays = held.stream().map(id -> CompletableFuture.supplyAsync(() -> Api.act("alice", id, "pay"))).toList();
            await().atMost(Duration.ofSeconds(10)).until(() -> Metrics.value("orders_http_in_flight") == 2);

            long start = System.nanoTime();
            placeOrderWithKey("alice", key, token, Api.ORDER).then().statusCode(503).header("Retry-After", "1")
                    .body("code", equalTo("service-unavailable"));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("refused when its wait ran out, not before").isGreaterThanOrEqualTo(MAX_WAIT);
            assertThat(Metrics.value("orders_http_waiting")).isZero();
        }
        pays.forEach(pay -> pay.join().then().statusCode(200));

        placeOrderWithKey("alice", key, token, Api.ORDER).then().statusCode(201);
        assertThat(Orders.countForToken(token)).isOne();
    }
}
