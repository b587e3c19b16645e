package io.orderflow.token;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/** Token expiry, the cap of outstanding tokens and lease takeover, with timings short enough to watch. */
@QuarkusTest
@TestProfile(ShortLivedTokensTest.ShortLivedTokens.class)
@WithTestResource(TestServers.class)
class ShortLivedTokensTest {

    public static class ShortLivedTokens implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "orders.tokens.ttl", "3S",
                    "orders.tokens.max-outstanding", "3",
                    "orders.tokens.lease", "1S",
                    "orders.tokens.in-flight-wait", "200MS");
        }
    }

    @Inject
    OrderTokens tokens;

    @Test
    void anExpiredTokenIsInvalid() {
        Response issued = as("alice").post("/orders/token");
        issued.then().statusCode(201).body("ttlSeconds", equalTo(3));
        Instant expiresAt = Instant.parse(issued.path("expiresAt"));

        await().atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(expiresAt.plusMillis(50)));

        placeOrder("alice", issued.path("token"), ORDER).then()
                .statusCode(410)
                .body("code", equalTo("order-token-invalid"));
    }

    @Test
    void aCustomerMayHoldOnlySoManyUnusedTokens() {
        String first = newToken("bob");
        newToken("bob");
        newToken("bob");

        Response refused = as("bob").post("/orders/token");
        refused.then()
                .statusCode(429)
                .contentType("application/problem+json")
                .body("code", equalTo("too-many-tokens"));
        assertThat(Integer.parseInt(refused.header("Retry-After"))).isBetween(1, 3);
        as("alice").post("/orders/token").then().statusCode(201);

        // Using a token frees its place.
        placeOrder("bob", first, ORDER).then().statusCode(201);
        as("bob").post("/orders/token").then().statusCode(201);
    }

    @Test
    void aCrashedHoldersLeaseRunsOutAndTheTokenYieldsOneOrder() {
        String token = newToken("ops");
        // A request that took the token and died before answering.
        assertThat(tokens.claim("ops", token, "a crashed request", Optional.empty()).outcome()).isEqualTo(TokenClaim.Outcome.CLAIMED);
        placeOrder("ops", token, ORDER).then().statusCode(409).body("code", equalTo("order-token-in-use"));

        await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> placeOrder("ops", token, ORDER).statusCode() == 201);
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }
}
