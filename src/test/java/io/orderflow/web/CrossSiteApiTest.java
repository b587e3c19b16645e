package io.orderflow.web;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.newToken;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import java.io.IOException;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.shared.redis.RedisKeys;
import io.orderflow.support.Orders;
import io.orderflow.support.BearerTokens;
import io.orderflow.support.TestServers;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * A browser that once signed in to the API with HTTP Basic keeps sending those credentials, also with
 * a form another site makes it post. So a state-changing API call authenticated by Basic (or by the
 * pages' session cookie) is refused with 403 {@code cross-site-request}, before anything is done, when
 * the browser marks it as coming from another site ({@code Sec-Fetch-Site: cross-site} or
 * {@code same-site}, an {@code Origin} that is not the service's) or when it carries a type a form can
 * send without asking first (text/plain, application/x-www-form-urlencoded). API clients such as curl
 * send none of these and are served as before; a bearer token, which no browser adds by itself, is
 * never refused for them. Endpoints that take only JSON are refused the same way, not with 415.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class CrossSiteApiTest {

    private static final String EVIL = "https://evil.example";
    /** What a hidden form on evil.example posts with enctype="text/plain". */
    private static final String FORM_BODY = "{\"x\":\"=\"}";

    @Inject
    RedisDataSource redis;
    @Inject
    RedisKeys keys;

    @Test
    void aCancelThatAnotherSiteMakesTheBrowserPostIsRefusedAndTheOrderStaysCreated() {
        String id = newOrder("alice");

        Response refused = as("alice").contentType("text/plain").header("Origin", EVIL).header("Sec-Fetch-Site", "cross-site")
                .body(FORM_BODY).post("/orders/{id}/cancel", id);

        refusedAsCrossSite(refused);
        as("alice").get("/orders/{id}", id).then().statusCode(200).body("status", equalTo("created")).body("version", equalTo(0));
    }

    @Test
    void eachSignOfAnotherSiteIsRefusedOnItsOwn() {
        String id = newOrder("alice");
        Map<String, RequestSpecification> alone = Map.of(
                "Content-Type: text/plain", as("alice").contentType("text/plain; charset=UTF-8").body(FORM_BODY),
                "Content-Type: application/x-www-form-urlencoded", as("alice").contentType(ContentType.URLENC).body("a=b"),
                "a form without fields", as("alice").contentType(ContentType.URLENC).body(""),
                "Origin: https://evil.example", as("alice").header("Origin", EVIL),
                "Origin: null (a sandboxed frame)", as("alice").header("Origin", "null"),
                "Origin: a sibling port of this host", as("alice").header("Origin", "http://localhost:1"),
                "Sec-Fetch-Site: cross-site", as("alice").header("Sec-Fetch-Site", "cross-site"),
                "Sec-Fetch-Site: same-site (a sibling subdomain)", as("alice").header("Sec-Fetch-Site", "same-site"));

        alone.forEach((sign, request) -> refusedAsCrossSite(request.post("/orders/{id}/cancel", id), sign));

        assertThat(Orders.value("SELECT status FROM orders WHERE id = ?", id)).isEqualTo("created");
    }

    @Test
    void aCurlLikeClientStillCancelsWithBasic() {
        String id = newOrder("alice");

        as("alice").post("/orders/{id}/cancel", id).then().statusCode(200).body("status", equalTo("cancelled"));
    }

    @Test
    void aPageOfThisSiteItselfIsServed() {
        String id = newOrder("alice");
        String self = RestAssured.baseURI.replaceAll("/+$", "") + ":" + RestAssured.port;

        as("alice").header("Origin", self).header("Sec-Fetch-Site", "same-origin").contentType(ContentType.JSON).body("{}")
                .post("/orders/{id}/cancel", id).then().statusCode(200).body("status", equalTo("cancelled"));
    }

    @Test
    void aBearerTokenIsServedEvenWithEverySignOfAnotherSite() throws IOException, InterruptedException {
        String id = newOrder("alice");
        String bearer = BearerTokens.fromScript("alice", "customer");

        hostile(given().header("Authorization", "Bearer " + bearer)).post("/orders/{id}/cancel", id)
                .then().statusCode(200).body("status", equalTo("cancelled"));
        hostile(given().header("Authorization", "Bearer " + bearer)).post("/orders/token").then().statusCode(201);
    }

    @Test
    void anOrderTokenIsNotIssuedToAnotherSite() {
        long before = outstandingTokens();

        refusedAsCrossSite(hostile(as("alice")).post("/orders/token"));

        assertThat(outstandingTokens()).isEqualTo(before);
        as("alice").post("/orders/token").then().statusCode(201);
    }

    @Test
    void staffCallsAreRefusedToAnotherSiteBeforeTheyRunAndServedToClients() throws IOException, InterruptedException {
        refusedAsCrossSite(hostile(as("ops")).post("/payments/reconciliation"));
        refusedAsCrossSite(hostile(as("ops")).post("/outbox/dead-letters/{id}/retry", Long.MAX_VALUE));
        refusedAsCrossSite(as("ops").contentType(ContentType.URLENC).body("a=b").post("/payments/reconciliation"));
        refusedAsCrossSite(as("ops").header("Origin", EVIL).contentType(ContentType.JSON).body("{\"delta\":1,\"reason\":\"x\"}")
                .post("/products/{sku}/stock", "ABC-1"));

        // The same calls from an API client reach the endpoint, which finds no such dead letter.
        as("ops").post("/outbox/dead-letters/{id}/retry", Long.MAX_VALUE).then().statusCode(404).body("code", equalTo("not-found"));
        hostile(given().header("Authorization", "Bearer " + BearerTokens.fromScript("ops", "staff"))).post("/outbox/dead-letters/{id}/retry", Long.MAX_VALUE)
                .then().statusCode(404).body("code", equalTo("not-found"));
    }

    @Test
    void anOrderPostedAsAFormIsRefusedAsCrossSiteAndPlacesNothing() {
        String token = newToken("alice");

        refusedAsCrossSite(hostile(as("alice")).header("Order-Token", token).post("/orders"));
        Response curlDefault = as("alice").header("Order-Token", token).contentType(ContentType.URLENC).body("{\"currency\":\"CNY\"}").post("/orders");
        refusedAsCrossSite(curlDefault, "a form's type");
        // What curl -d sends without a Content-Type: the answer tells a script what to send instead.
        curlDefault.then().body("detail", containsString("Content-Type: application/json"));
        refusedAsCrossSite(hostile(as("ops")).body("{\"delta\":1,\"reason\":\"x\"}").post("/products/{sku}/stock", "ABC-1"));

        assertThat(Orders.countForToken(token)).isZero();
    }

    @Test
    void aRefusalKeepsNoIdempotencyKeySoTheClientsRetryRuns() {
        String id = newOrder("alice");
        String key = UUID.randomUUID().toString();

        refusedAsCrossSite(hostile(as("alice")).header("Idempotency-Key", key).post("/orders/{id}/cancel", id));

        as("alice").header("Idempotency-Key", key).post("/orders/{id}/cancel", id).then().statusCode(200)
                .header("Idempotent-Replayed", (String) null).body("status", equalTo("cancelled"));
    }

    @Test
    void readingIsNotAffected() {
        String id = newOrder("alice");

        hostile(as("alice")).get("/orders/{id}", id).then().statusCode(200).body("status", equalTo("created"));
    }

    /** Every sign a browser gives of a form posted from evil.example. */
    private static RequestSpecification hostile(RequestSpecification request) {
        return request.contentType("text/plain").header("Origin", EVIL).header("Sec-Fetch-Site", "cross-site").body(FORM_BODY);
    }

    private static void refusedAsCrossSite(Response answer) {
        refusedAsCrossSite(answer, "all signs");
    }

    private static void refusedAsCrossSite(Response answer, String sign) {
        assertThat(answer.statusCode()).as("status with %s: %s", sign, answer.asString()).isEqualTo(403);
        answer.then().contentType(startsWith("application/problem+json")).body("code", equalTo("cross-site-request"))
                .body("status", equalTo(403)).body(not(equalTo("")));
    }

    private long outstandingTokens() {
        return redis.sortedSet(String.class).zcard(keys.ofPrincipal("alice", "tokens-outstanding"));
    }

}
