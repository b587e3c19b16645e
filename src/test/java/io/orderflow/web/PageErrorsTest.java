package io.orderflow.web;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.SignInForm.signIn;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;

/** People who go astray under /checkout read a page in their language; API clients still get problem details. */
@QuarkusTest
@WithTestResource(TestServers.class)
class PageErrorsTest {

    @Test
    void anAddressThatLeadsNowhereUnderCheckoutIsAPage() {
        CookieFilter alice = new CookieFilter();
        signIn(alice, "alice", "alice").then().statusCode(302);

        for (String astray : new String[] { "/checkout/nowhere", "/checkout/orders/" + UUID.randomUUID() + "/refund" }) {
            given().filter(alice).get(astray).then().statusCode(404).contentType(containsString("text/html"))
                    .body(containsString("<h1>Page not found</h1>")).body(containsString("<a href=\"/checkout\">Go to the shop</a>"));
        }
        given().filter(alice).header("Accept-Language", "zh-CN").get("/checkout/nowhere").then().statusCode(404)
                .body(containsString("<h1>页面不存在</h1>"));
        as("alice").get("/orders/" + UUID.randomUUID() + "/nowhere").then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("not-found"));
    }

    @Test
    void anAccountThatMayNotOpenTheShopIsToldSoOnAPage() {
        String monitor = "monitor-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(monitor, "metrics");
        CookieFilter cookies = new CookieFilter();
        signIn(cookies, monitor, monitor).then().statusCode(302);

        given().filter(cookies).get("/checkout").then().statusCode(403).contentType(containsString("text/html"))
                .body(containsString("<h1>Not for this account</h1>"));
        given().filter(cookies).get("/checkout/orders").then().statusCode(403).body(containsString("Sign out, then sign in"));
        as(monitor).get("/orders").then().statusCode(403).contentType("application/problem+json").body("code", equalTo("forbidden"));
    }
}
