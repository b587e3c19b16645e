package io.orderflow.token;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static io.orderflow.support.Api.placeOrderWithKey;
import static io.orderflow.support.SignInForm.signIn;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.orderflow.support.PrivateRedis;
import io.orderflow.support.RedisOutages;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.filter.cookie.CookieFilter;

/** Redis stops and comes back empty: clients get 503 problems meanwhile, never a 500, and then carry on. */
@QuarkusTest
@TestProfile(RedisOutages.class)
@WithTestResource(TestServers.class)
@WithTestResource(PrivateRedis.class)
class RedisOutageTest {

    @Test
    void whileRedisIsDownTheCheckoutSaysSoOnAPageAndAfterwardsTakesTheOrder() {
        CookieFilter alice = new CookieFilter();
        signIn(alice, "alice", "alice").then().statusCode(302);
        given().filter(alice).get("/checkout").then().statusCode(200);

        PrivateRedis.stopServer();
        try {
            // The browser's kept order token cannot be checked, nor a new one issued.
            given().filter(alice).get("/checkout").then().statusCode(503).contentType(containsString("text/html"))
                    .header("Retry-After", "1")
                    .body(containsString("<h1>Please try again in a moment</h1>"))
                    .body(not(containsString("Exception")));
        } finally {
            PrivateRedis.startServer();
        }
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> given().filter(alice).get("/checkout").statusCode() == 200);
        given().filter(alice).get("/checkout").then().body(containsString("name=\"token\""));
    }

    @Test
    void whileRedisIsDownTheServiceSaysSoAndAfterwardsItWorksAgain() {
        String token = newToken("alice");

        PrivateRedis.stopServer();
        as("alice").post("/orders/token").then()
                .statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", "1")
                .body("code", equalTo("service-unavailable"))
                .body(not(containsString("Exception")));
        placeOrder("alice", token, ORDER).then().statusCode(503).body("code", equalTo("service-unavailable"));
        // With an Idempotency-Key, whose claim shares the token's script call: refused, and the key left unused.
        String key = UUID.randomUUID().toString();
        placeOrderWithKey("alice", key, token, ORDER).then().statusCode(503).header("Retry-After", "1").body("code", equalTo("service-unavailable"));
        given().get("/q/health/ready").then().statusCode(503).body("status", equalTo("DOWN"));

        // Redis returns without its data: the old token is gone, new ones work.
        PrivateRedis.startServer();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> as("alice").post("/orders/token").statusCode() == 201);
        placeOrder("alice", token, ORDER).then().statusCode(410).body("code", equalTo("order-token-invalid"));
        placeOrder("alice", newToken("alice"), ORDER).then().statusCode(201);
        placeOrderWithKey("alice", key, newToken("alice"), ORDER).then().statusCode(201).header("Idempotent-Replayed", (String) null);
        given().get("/q/health/ready").then().statusCode(200);
    }
}
