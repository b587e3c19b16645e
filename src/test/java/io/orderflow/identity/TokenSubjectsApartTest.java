package io.orderflow.identity;

import static io.orderflow.support.Api.ORDER_WITH_ADDRESS;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.BearerTokens.DEV_KEY;
import static io.orderflow.support.BearerTokens.claims;
import static io.orderflow.support.BearerTokens.sign;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.support.UserStoreProxy;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

/**
 * With an identity provider's tokens (orders.users.tokens-may-name-users off, as in production), a token
 * whose subject is the name of a user who signs in with a password is refused: the provider cannot hand
 * anyone alice's or the staff user's orders. Its own subjects are callers of their own.
 */
@QuarkusTest
@TestProfile(TokenSubjectsApartTest.IdentityProviderTokens.class)
@WithTestResource(TestServers.class)
@WithTestResource(UserStoreProxy.class)
class TokenSubjectsApartTest {

    public static class IdentityProviderTokens implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orders.users.tokens-may-name-users", "false");
        }
    }

    @Test
    void whileTheUserStoreIsDownNoTokenIsTakenOnTrustAndTheAnswerIs503() {
        String alices = sign(claims("alice", "customer"), DEV_KEY);
        String providers = sign(claims("idp-" + UUID.randomUUID().toString().substring(0, 8), "customer"), DEV_KEY);
        UserStoreProxy.cut();
        try {
            // An order token needs only Redis: had the failed check let the token through, alice's would get one.
            for (String token : new String[] { alices, providers }) {
                bearer(token).post("/orders/token").then().statusCode(503).contentType("application/problem+json")
                        .header("Retry-After", "1").body("code", equalTo("service-unavailable"));
            }
        } finally {
            UserStoreProxy.restore();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> bearer(providers).post("/orders/token").statusCode() == 201);
        bearer(alices).post("/orders/token").then().statusCode(401);
    }

    @Test
    void aTokenNamingAPasswordUserIsRefusedWhateverItsRole() {
        String id = newOrder("alice");
        for (String subject : new String[] { "alice", "ops", "bob" }) {
            for (String role : new String[] { "customer", "staff" }) {
                String token = sign(claims(subject, role), DEV_KEY);
                bearer(token).get("/orders/{id}", id).then().statusCode(401).body("code", equalTo("unauthorized"))
                        .body("detail", equalTo("The bearer token was refused: its subject (sub) is the name of a user who signs in with a password."));
                bearer(token).post("/orders/token").then().statusCode(401);
            }
        }
        as("alice").get("/orders/{id}", id).then().statusCode(200);
    }

    @Test
    void aSubjectOfTheProviderIsACallerOfItsOwn() {
        String aliceOrder = newOrder("alice");
        String subject = "idp|" + UUID.randomUUID();
        String token = sign(claims(subject, "customer"), DEV_KEY);
        String orderToken = bearer(token).post("/orders/token").then().statusCode(201).extract().path("token");
        String id = bearer(token).contentType(ContentType.JSON).header("Order-Token", orderToken).body(ORDER_WITH_ADDRESS).post("/orders")
                .then().statusCode(201).extract().path("id");
        assertThat(Orders.value("SELECT customer FROM orders WHERE id = ?", id)).isEqualTo(subject);
        bearer(token).get("/orders/{id}", aliceOrder).then().statusCode(404);
        bearer(token).get("/orders").then().statusCode(200).body("items.id", not(hasItem(aliceOrder)));
    }

    private static RequestSpecification bearer(String token) {
        return given().header("Authorization", "Bearer " + token).accept(ContentType.JSON);
    }
}
