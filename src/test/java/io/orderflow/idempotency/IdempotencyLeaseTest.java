package io.orderflow.idempotency;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newToken;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Metrics;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.support.TightLimits;
import io.orderflow.support.UserStoreProxy;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** A holder that dies, or outlives its lease, never blocks a key for good nor overwrites its successor. */
@QuarkusTest
@TestProfile(TightLimits.class)
@WithTestResource(TestServers.class)
@WithTestResource(UserStoreProxy.class)
class IdempotencyLeaseTest {

    private static final String PATH = "/orders/token";
    private static final String IN_USE = "orders_idempotency_requests_total{outcome=\"in-use\"}";
    private static final String TAKEN_OVER = "orders_idempotency_requests_total{outcome=\"taken-over\"}";

    @Inject
    IdempotencyStore store;

    @Test
    void aDeadHoldersKeyIsFreeOnceItsLeaseRunsOut() {
        // A first request pays the freshly started app's cold start, which can outlast the lease on a busy
        // machine, before the lease below begins: the request that must find it running then arrives warm.
        issueToken(UUID.randomUUID().toString()).then().statusCode(201);
        String key = UUID.randomUUID().toString();
        double inUse = Metrics.value(IN_USE);
        double takenOver = Metrics.value(TAKEN_OVER);
        // A request that claimed the key and died before answering.
        KeyClaim dead = store.claim(new KeyScope("alice", "POST", PATH, key), RequestFingerprint.of("POST", PATH, new byte[0]));
        assertThat(dead.outcome()).isEqualTo(KeyClaim.Outcome.CLAIMED);

        issueToken(key).then()
                .statusCode(409)
                .header("Retry-After", "1")
                .body("code", equalTo("idempotency-key-in-use"));

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> issueToken(key).statusCode() == 201);
        issueToken(key).then().statusCode(201).header("Idempotent-Replayed", "true");
        assertThat(Metrics.value(IN_USE)).isGreaterThan(inUse);
        assertThat(Metrics.value(TAKEN_OVER)).isEqualTo(takenOver + 1);
    }

    @Test
    void anOrderWhoseKeysHolderDiedRunsOnceTheLeaseRunsOutAndKeepsItsTokenMeanwhile() {
        String key = UUID.randomUUID().toString();
        KeyClaim dead = store.claim(new KeyScope("alice", "POST", "/orders", key),
                RequestFingerprint.of("POST", "/orders", ORDER.getBytes(StandardCharsets.UTF_8)));
        assertThat(dead.outcome()).isEqualTo(KeyClaim.Outcome.CLAIMED);
        String token = newToken("alice");

        // POST /orders claims its key and its token in one script: a key in use claims no token.
        AtomicReference<Response> taken = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
            taken.set(placeOrder(key, token));
            if (taken.get().statusCode() == 409) {
                assertThat(taken.get().<String>path("code")).isEqualTo("idempotency-key-in-use");
            }
            return taken.get().statusCode() != 409;
        });

        taken.get().then().statusCode(201).header("Idempotent-Replayed", (String) null);
        assertThat(Orders.countForToken(token)).isEqualTo(1);
        placeOrder(key, newToken("alice")).then().statusCode(201).header("Idempotent-Replayed", "true")
                .body("id", equalTo(taken.get().path("id")));
    }

    @Test
    void aSlowHolderCannotOverwriteItsSuccessorsAnswer() {
        String key = UUID.randomUUID().toString();
        KeyClaim slow = store.claim(new KeyScope("alice", "POST", PATH, key), RequestFingerprint.of("POST", PATH, new byte[0]));
        AtomicReference<Response> successor = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
            successor.set(issueToken(key));
            return successor.get().statusCode() == 201;
        });

        boolean overwritten = store.complete(slow, slow.fingerprint().value(), new StoredAnswer(201, Map.of(), "{\"token\":\"from the slow holder\"}", false),
                Duration.ofMinutes(1)).await().atMost(Duration.ofSeconds(5));
        assertThat(overwritten).isFalse();
        assertThat(store.release(slow)).isFalse();

        issueToken(key).then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .body("token", equalTo(successor.get().path("token")));
    }

    private static Response placeOrder(String key, String token) {
        return as("alice").header("Idempotency-Key", key).header("Order-Token", token).contentType(ContentType.JSON).body(ORDER).post("/orders");
    }

    private static Response issueToken(String key) {
        return as("alice").header("Idempotency-Key", key).post(PATH);
    }
}
