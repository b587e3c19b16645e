package io.orderflow.identity;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.ORDER_WITH_ADDRESS;
import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.BearerTokens.DEV_KEY;
import static io.orderflow.support.BearerTokens.claims;
import static io.orderflow.support.BearerTokens.encode;
import static io.orderflow.support.BearerTokens.sign;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;


import io.orderflow.support.Orders;
import io.orderflow.support.BearerTokens;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/** API clients authenticate with a JWT signed by the trusted key; the caller is the token's subject. */
@QuarkusTest
@WithTestResource(TestServers.class)
class BearerTokenTest {

    private static final PrivateKey STRANGER_KEY = strangerKey();

    @Test
    void aCustomersTokenTakesAnOrderTokenAndPlacesAnOrderOwnedByItsSubject() {
        String bearer = sign(claims("alice", "customer"), DEV_KEY);
        String orderToken = bearer(bearer).post("/orders/token").then()
                .statusCode(201)
                .header("Set-Cookie", (String) null)
                .extract().path("token");

        Response placed = bearer(bearer).contentType(ContentType.JSON).header("Order-Token", orderToken).body(ORDER_WITH_ADDRESS).post("/orders");
        placed.then().statusCode(201).header("Set-Cookie", (String) null).body("status", equalTo("created"));
        String id = placed.path("id");

        assertThat(owner(id)).isEqualTo("alice");
        as("alice").get("/orders/{id}", id).then().statusCode(200);
        bearer(bearer).get("/orders/{id}", id).then().statusCode(200).body("id", equalTo(id));
    }

    @Test
    void aSubjectUnknownToTheUserStoreIsTheCaller() {
        String subject = "partner-" + UUID.randomUUID();
        String bearer = sign(claims(subject, "customer"), DEV_KEY);

        String id = placeWith(bearer, bearer(bearer).post("/orders/token").then().statusCode(201).extract().path("token"));

        assertThat(owner(id)).isEqualTo(subject);
        as("alice").get("/orders/{id}", id).then().statusCode(404);
    }

    @Test
    void upnAndPreferredUsernameDoNotNameTheCaller() {
        String alicesOrder = newOrder("alice");
        String subject = "mallory-" + UUID.randomUUID();
        Map<String, Object> claims = claims(subject, "customer");
        claims.put("upn", "alice");
        claims.put("preferred_username", "alice");
        String bearer = sign(claims, DEV_KEY);

        bearer(bearer).get("/orders/{id}", alicesOrder).then().statusCode(404);
        String id = placeWith(bearer, bearer(bearer).post("/orders/token").then().statusCode(201).extract().path("token"));
        assertThat(owner(id)).isEqualTo(subject);
    }

    @Test
    void aRefusedTokenGets401AndChangesNothing() {
        Map<String, Object> expired = claims("alice", "customer");
        expired.put("iat", Instant.now().minusSeconds(3600).getEpochSecond());
        expired.put("exp", Instant.now().minusSeconds(600).getEpochSecond());
        Map<String, Object> otherAudience = claims("alice", "customer");
        otherAudience.put("aud", "another-api");
        Map<String, Object> otherIssuer = claims("alice", "customer");
        otherIssuer.put("iss", "https://issuer.example/elsewhere");
        Map<String, Object> noSubject = claims("alice", "customer");
        noSubject.remove("sub");
        noSubject.put("upn", "alice");
        Map<String, Object> numericSubject = claims("alice", "customer");
        numericSubject.put("sub", 42);
        Map<String, Object> tooLongSubject = claims("a".repeat(256), "customer");
        // Valid now, but issued for longer than the hour a token may live, or with no time of issue to tell.
        Map<String, Object> longLived = claims("alice", "customer");
        longLived.put("exp", Instant.now().plusSeconds(2 * 3600).getEpochSecond());
        Map<String, Object> noIssuedAt = claims("alice", "customer");
        noIssuedAt.remove("iat");
        // Each token, with what its client is told of why it was refused.
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put(sign(claims("alice", "customer"), STRANGER_KEY), "its signature does not verify");
        refused.put(sign(expired, DEV_KEY), "it has expired");
        refused.put(sign(otherAudience, DEV_KEY), "it is not for this service");
        refused.put(sign(otherIssuer, DEV_KEY), "its issuer (iss) is not the one this service trusts");
        refused.put(unsigned(claims("alice", "customer")), "");
        refused.put(sign(noSubject, DEV_KEY), "");
        refused.put(sign(numericSubject, DEV_KEY), "");
        refused.put(sign(tooLongSubject, DEV_KEY), "its subject (sub) is no string");
        refused.put(sign(longLived, DEV_KEY), "");
        refused.put(sign(noIssuedAt, DEV_KEY), "");
        refused.put("not-a-token", "");
        String orderToken = newToken("alice");
        String key = UUID.randomUUID().toString();

        refused.forEach((bearer, why) -> {
            bearer(bearer).contentType(ContentType.JSON).header("Order-Token", orderToken).header("Idempotency-Key", key)
                    .body(ORDER).post("/orders").then()
                    .statusCode(401)
                    .header("WWW-Authenticate", matchesPattern("Bearer realm=\"orders\", error=\"invalid_token\""))
                    .header("Set-Cookie", (String) null)
                    .contentType("application/problem+json")
                    .body("detail", startsWith("The bearer token was refused: " + why));
            bearer(bearer).post("/orders/token").then().statusCode(401);
        });

        assertThat(Orders.countForToken(orderToken)).isZero();
        // Neither the order token nor the Idempotency-Key was spent: the first real request runs.
        as("alice").contentType(ContentType.JSON).header("Order-Token", orderToken).header("Idempotency-Key", key)
                .body(ORDER).post("/orders").then()
                .statusCode(201)
                .header("Idempotent-Replayed", (String) null);
    }

    @Test
    void aCustomersTokenCannotActOnAnotherCustomersOrderNorShip() {
        String alice = sign(claims("alice", "customer"), DEV_KEY);
        String bobsOrder = newOrder("bob");
        String alicesOrder = newOrder("alice");

        bearer(alice).get("/orders/{id}", bobsOrder).then().statusCode(404);
        bearer(alice).header("Idempotency-Key", UUID.randomUUID().toString()).post("/orders/{id}/pay", bobsOrder).then().statusCode(404);
        bearer(alice).post("/orders/{id}/ship", bobsOrder).then().statusCode(404);
        bearer(alice).header("Idempotency-Key", UUID.randomUUID().toString()).post("/orders/{id}/pay", alicesOrder).then()
                .statusCode(200).body("status", equalTo("paid"));
        bearer(alice).post("/orders/{id}/ship", alicesOrder).then().statusCode(403);

        as("bob").get("/orders/{id}", bobsOrder).then().statusCode(200).body("status", equalTo("created"));
        as("alice").get("/orders/{id}", alicesOrder).then().statusCode(200).body("status", equalTo("paid"));
    }

    @Test
    void aStaffTokenShips() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);

        // Staff is the groups claim, not the name of a staff user.
        bearer(sign(claims("ops", "customer"), DEV_KEY)).post("/orders/{id}/ship", id).then().statusCode(404);
        bearer(sign(claims("ops", "staff"), DEV_KEY)).post("/orders/{id}/ship", id).then()
                .statusCode(200)
                .body("status", equalTo("shipped"));
    }

    @Test
    void aTokenOpensNoWebPage() {
        Map<String, String> cookies = given().header("Authorization", "Bearer " + sign(claims("alice", "customer"), DEV_KEY)).redirects().follow(false)
                .get("/checkout").then()
                .statusCode(302)
                .header("Location", containsString("/login"))
                .extract().cookies();
        // No session: only where to return after signing in.
        assertThat(cookies.keySet()).containsOnly("quarkus-redirect-location");
    }

    @Test
    void theSigningScriptsTokenIsAccepted() throws IOException, InterruptedException {
        String bearer = BearerTokens.fromScript("alice", "customer", "120");

        String placed = placeWith(bearer, bearer(bearer).post("/orders/token").then().statusCode(201).extract().path("token"));
        assertThat(owner(placed)).isEqualTo("alice");

        String staff = BearerTokens.fromScript("ops", "staff");
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        bearer(staff).post("/orders/{id}/ship", id).then().statusCode(200).body("status", equalTo("shipped"));
    }

    private static RequestSpecification bearer(String token) {
        return given().header("Authorization", "Bearer " + token).accept(ContentType.JSON);
    }

    private static String placeWith(String bearer, String orderToken) {
        return bearer(bearer).contentType(ContentType.JSON).header("Order-Token", orderToken).body(ORDER_WITH_ADDRESS).post("/orders").then()
                .statusCode(201)
                .extract().path("id");
    }

    private static String owner(String id) {
        return Orders.value("SELECT customer FROM orders WHERE id = ?", id);
    }

    /** A token that claims to need no signature (alg none). */
    private static String unsigned(Map<String, Object> claims) {
        return encode(Map.of("alg", "none", "typ", "JWT")) + "." + encode(claims) + ".";
    }

    private static PrivateKey strangerKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair().getPrivate();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

}
