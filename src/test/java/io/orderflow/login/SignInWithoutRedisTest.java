package io.orderflow.login;

import static io.orderflow.support.RedisOutages.LOGIN_FAILURES_PER_USER_AND_ADDRESS;
import static io.orderflow.support.SignInForm.signIn;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.support.PrivateRedis;
import io.orderflow.support.RedisOutages;
import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;

/**
 * Throttling fails closed: while Redis is down, sign-ins answer 503 with Retry-After and are counted,
 * never checked unthrottled; no sign-in turns into a 500. The pages' sessions fail closed too.
 */
@QuarkusTest
@TestProfile(RedisOutages.class)
@WithTestResource(TestServers.class)
@WithTestResource(PrivateRedis.class)
class SignInWithoutRedisTest {

    @Inject
    MeterRegistry metrics;

    @Inject
    SignInClearances clearances;

    @Inject
    SignInFailures failures;

    /**
     * No check without the throttle: while Redis is down a guess is never cheaper, so sign-ins answer 503,
     * the right password too; only a password verified lately from its very address is known good and gets in.
     */
    @Test
    void whileRedisIsDownOnlyASignInKnownGoodAtItsAddressGetsIn() {
        String known = newUser("known");
        String stranger = newUser("stranger");
        await().atMost(Duration.ofSeconds(10)).until(() -> basic(known, known).statusCode() == 200 && clearances.wasCleared(known, "127.0.0.1"));
        double skipped = metrics.counter("orders.login.throttle.unavailable", "step", "check").count();
        double failed = metrics.counter("orders.login.failures").count();
        PrivateRedis.stopServer();
        try {
            basic(known, known).then().statusCode(200);
            for (Response unavailable : List.of(basic(known, "wrong"), basic(stranger, stranger), basic(stranger, "wrong"))) {
                unavailable.then().statusCode(503).contentType("application/problem+json").body("code", equalTo("service-unavailable"));
                assertThat(Long.parseLong(unavailable.header("Retry-After"))).isPositive();
            }
            signIn(new CookieFilter(), stranger, stranger).then().statusCode(503).header("Retry-After", notNullValue());
            assertThat(metrics.counter("orders.login.throttle.unavailable", "step", "check").count()).isEqualTo(skipped + 5);
            assertThat(metrics.counter("orders.login.failures").count()).as("wrong passwords checked").isEqualTo(failed);
        } finally {
            PrivateRedis.startServer();
        }
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> given().auth().preemptive().basic("alice", "alice").post("/orders/token").statusCode() == 201);
        basic(stranger, stranger).then().statusCode(200);
    }

    private static Response basic(String user, String password) {
        return given().auth().preemptive().basic(user, password).get("/products?limit=1");
    }

    private static String newUser(String prefix) {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(name, "customer");
        return name;
    }

    /**
     * Failures announced while the channel is down are never heard: so an outage forgets every pair
     * signed in without Redis, and failures counted meanwhile by another instance are still refused.
     */
    @Test
    void afterRedisWasDownFailuresCountedElsewhereStillRefuse() {
        String name = "drop-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(name, "customer");
        String address = "127.0.0.1";
        // Cleared by a sign-in once the channel is heard (after an earlier test's outage it is subscribed to again).
        await().atMost(Duration.ofSeconds(10)).until(() -> given().auth().preemptive().basic(name, name).get("/products?limit=1").statusCode() == 200
                && clearances.isCleared(name, address));

        PrivateRedis.stopServer();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> !clearances.isCleared(name, address));
        } finally {
            PrivateRedis.startServer();
        }
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> given().auth().preemptive().basic("alice", "alice").post("/orders/token").statusCode() == 201);
        // Another instance counted them; its announcement went out while this one was not listening.
        for (int i = 0; i < LOGIN_FAILURES_PER_USER_AND_ADDRESS; i++) {
            failures.count(name, address).await().atMost(Duration.ofSeconds(5));
        }

        given().auth().preemptive().basic(name, name).get("/products?limit=1").then().statusCode(429);
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
