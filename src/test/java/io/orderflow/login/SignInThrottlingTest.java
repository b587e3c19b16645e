package io.orderflow.login;

import static io.orderflow.support.SignInForm.signIn;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;

/**
 * Wrong passwords get throttled: per user name and per client address, over HTTP Basic and the
 * sign-in form, refused before the password is checked, for a window that ends on its own. Each
 * test signs in from its own address (X-Forwarded-For, trusted by this profile), as the address
 * Quarkus reports.
 */
@QuarkusTest
@TestProfile(SignInThrottlingTest.SmallLimits.class)
@WithTestResource(TestServers.class)
class SignInThrottlingTest {

    private static final int PER_USER = 3;
    private static final int PER_ADDRESS = 6;

    public static class SmallLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orders.login.max-failures-per-user", String.valueOf(PER_USER),
                    "orders.login.max-failures-per-address", String.valueOf(PER_ADDRESS),
                    "orders.login.window", "4S",
                    "quarkus.http.proxy.proxy-address-forwarding", "true",
                    "quarkus.http.proxy.allow-x-forwarded", "true");
        }
    }

    @Inject
    MeterRegistry metrics;

    @Test
    void wrongPasswordsForOneUserRefuseEvenTheRightOneOverBasicUntilTheWindowEnds() {
        String address = "198.51.100.1";
        for (int i = 0; i < PER_USER; i++) {
            api(address, "alice", "wrong").then().statusCode(401);
        }

        Response refused = api(address, "alice", "alice");
        refused.then()
                .statusCode(429)
                .contentType("application/problem+json")
                .body("code", equalTo("too-many-sign-in-failures"));
        assertThat(Long.parseLong(refused.header("Retry-After"))).isBetween(1L, 4L);
        // The same answer whatever the password: it was not checked.
        api(address, "alice", "wrong").then().statusCode(429).body("code", equalTo("too-many-sign-in-failures"));

        await().atMost(Duration.ofSeconds(8)).until(() -> api(address, "alice", "alice").statusCode() == 201);
    }

    @Test
    void wrongPasswordsOnTheSignInFormShowItAgainWithWhenToRetry() {
        String address = "198.51.100.2";
        for (int i = 0; i < PER_USER; i++) {
            form(address, "bob", "nope").then().statusCode(302).header("Location", containsString("/login?error=true"));
        }

        Response refused = form(address, "bob", "bob");
        refused.then()
                .statusCode(429)
                .contentType(containsString("text/html"))
                .body(containsString("Too many failed sign-ins"))
                .body(containsString("<a href=\"/login\">"))
                .body(not(containsString("j_security_check")))
                .body(not(containsString("Exception")));
        assertThat(Long.parseLong(refused.header("Retry-After"))).isBetween(1L, 4L);
        assertThat(refused.cookie("quarkus-credential")).as("no session for a refused sign-in").isNull();

        await().atMost(Duration.ofSeconds(8)).until(() -> form(address, "bob", "bob").statusCode() == 302);
        form(address, "bob", "bob").then().statusCode(302).header("Location", containsString("/checkout"));
    }

    @Test
    void anotherUserFromTheSameAddressSignsInUntilTheAddressLimit() {
        String address = "198.51.100.3";
        double byAddress = throttled("address");
        for (int i = 0; i < PER_USER; i++) {
            api(address, "mallory", "guess-" + i).then().statusCode(401);
        }
        api(address, "mallory", "guess").then().statusCode(429);
        api(address, "alice", "alice").then().statusCode(201);

        for (int i = 0; i < PER_ADDRESS - PER_USER; i++) {
            api(address, "trudy", "guess-" + i).then().statusCode(401);
        }
        api(address, "alice", "alice").then().statusCode(429).body("code", equalTo("too-many-sign-in-failures"));
        form(address, "alice", "alice").then().statusCode(429);
        assertThat(throttled("address")).isEqualTo(byAddress + 2);

        api("198.51.100.4", "alice", "alice").then().statusCode(201);
    }

    @Test
    void aSuccessClearsTheUsersCount() {
        String address = "198.51.100.5";
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < PER_USER - 1; i++) {
                products(address, "ops", "wrong").then().statusCode(401);
            }
            products(address, "ops", "ops").then().statusCode(200);
        }
    }

    @Test
    void failuresAndRefusalsAreCounted() {
        String address = "198.51.100.6";
        double failures = metrics.counter("orders.login.failures").count();
        double byUser = throttled("user");

        for (int i = 0; i < PER_USER; i++) {
            api(address, "eve", "guess-" + i).then().statusCode(401);
        }
        api(address, "eve", "guess").then().statusCode(429);

        assertThat(metrics.counter("orders.login.failures").count()).isEqualTo(failures + PER_USER);
        assertThat(throttled("user")).isEqualTo(byUser + 1);
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("orders_login_failures_total"))
                .body(containsString("orders_login_throttled_total{by=\"user\"}"));
    }

    private double throttled(String by) {
        return metrics.counter("orders.login.throttled", "by", by).count();
    }

    private static Response api(String address, String user, String password) {
        return given().header("X-Forwarded-For", address).auth().preemptive().basic(user, password).post("/orders/token");
    }

    private static Response products(String address, String user, String password) {
        return given().header("X-Forwarded-For", address).auth().preemptive().basic(user, password).get("/products?limit=1");
    }

    private static Response form(String address, String user, String password) {
        return signIn(given().header("X-Forwarded-For", address), new CookieFilter(), user, password);
    }
}
