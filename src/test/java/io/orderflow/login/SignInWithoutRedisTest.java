package io.orderflow.login;

import static io.orderflow.support.SignInForm.signIn;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.support.PrivateRedis;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;

/**
 * Throttling fails open: while Redis is down, sign-ins are checked as usual, unthrottled, and the
 * skipped checks are counted; no sign-in turns into a 500.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
@WithTestResource(PrivateRedis.class)
class SignInWithoutRedisTest {

    @Inject
    MeterRegistry metrics;

    @Test
    void whileRedisIsDownSignInsAreCheckedUnthrottled() {
        double skipped = metrics.counter("orders.login.throttle.unavailable", "step", "check").count();
        PrivateRedis.stopServer();
        try {
            given().auth().preemptive().basic("ops", "wrong").get("/products?limit=1").then().statusCode(401);
            given().auth().preemptive().basic("ops", "ops").get("/products?limit=1").then().statusCode(200);
            signIn(new CookieFilter(), "bob", "bob")
                    .then().statusCode(302).header("Location", containsString("/checkout"));
            assertThat(metrics.counter("orders.login.throttle.unavailable", "step", "check").count()).isGreaterThanOrEqualTo(skipped + 3);
        } finally {
            PrivateRedis.startServer();
        }
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> given().auth().preemptive().basic("alice", "alice").post("/orders/token").statusCode() == 201);
    }
}
