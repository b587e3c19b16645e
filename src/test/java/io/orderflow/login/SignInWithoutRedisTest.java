package io.orderflow.login;

import static io.orderflow.support.SignInForm.signIn;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.notNullValue;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.support.PrivateRedis;
import io.orderflow.support.RedisOutages;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;

/**
 * Throttling fails open: while Redis is down, sign-ins are checked as usual, unthrottled, and the
 * skipped checks are counted; no sign-in turns into a 500. The pages' sessions fail closed.
 */
@QuarkusTest
@TestProfile(RedisOutages.class)
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

    /** Whether a session was ended is kept in Redis: while nobody can tell, a signed-in page fails closed. */
    @Test
    void whileRedisIsDownSignedInPagesAnswer503AndServeAgainOnceItIsBack() {
        CookieFilter browser = new CookieFilter();
        signIn(browser, "bob", "bob").then().statusCode(302);
        myOrders(browser).then().statusCode(200);
        PrivateRedis.stopServer();
        try {
            myOrders(browser).then().statusCode(503).header("Retry-After", notNullValue());
        } finally {
            PrivateRedis.startServer();
        }
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> myOrders(browser).statusCode() == 200);
    }

    /** A page that reads only PostgreSQL: with Redis down, only the session check needs it. */
    private static Response myOrders(CookieFilter browser) {
        return given().filter(browser).redirects().follow(false).get("/checkout/orders");
    }
}
