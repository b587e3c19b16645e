package io.orderflow.order;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;

import java.sql.Connection;
import java.sql.Statement;

import org.junit.jupiter.api.Test;

import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.response.Response;

@QuarkusTest
@WithTestResource(TestServers.class)
class OrderCreationTest {

    @Test
    void aTokenIsIssuedToTheCallerAndNeverCached() {
        as("alice").post("/orders/token").then()
                .statusCode(201)
                .header("Cache-Control", "no-store")
                .body("token", matchesPattern("[A-Za-z0-9_-]{43}"))
                .body("expiresAt", notNullValue())
                .body("ttlSeconds", equalTo(300));
    }

    @Test
    void anOrderIsCreatedWithItsLocationAndActions() {
        Response created = placeOrder("alice", newToken("alice"),
                "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"ABC-1\",\"quantity\":2,\"unitPrice\":\"12.5\"},{\"sku\":\"DECLINE-51\",\"quantity\":1}]}");
        created.then()
                .statusCode(201)
                .header("Idempotent-Replayed", (String) null)
                .body("status", equalTo("created"))
                .body("currency", equalTo("CNY"))
                .body("totalAmount", equalTo("37.51"))
                .body("items.unitPrice", contains("12.50", "12.51"))
                .body("version", equalTo(0))
                .body("allowedActions", contains("pay", "cancel"));
        String id = created.path("id");
        assertThat(created.header("Location")).isEqualTo("/orders/" + id);
        assertThat(id.charAt(14)).as("UUID version").isEqualTo('7');

        as("alice").get("/orders/{id}", id).then()
                .statusCode(200)
                .body("id", equalTo(id))
                .body("history.size()", equalTo(0));
    }

    @Test
    void theSameTokenAndPayloadReplayTheFirstAnswer() {
        String token = newToken("alice");
        Response first = placeOrder("alice", token, ORDER);
        first.then().statusCode(201);

        // Same order, written differently: members reordered, amount without its trailing zero.
        Response again = placeOrder("alice", token,
                "{\"items\":[{\"unitPrice\":\"12.5\",\"quantity\":2,\"sku\":\"ABC-1\"}],\"currency\":\"CNY\"}");
        again.then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .header("Location", first.header("Location"));
        assertThat(again.asString()).isEqualTo(first.asString());
    }

    @Test
    void aReplayIsAnsweredFromWhatTheCreationStoredWithoutReadingTheOrder() throws Exception {
        String token = newToken("alice");
        Response first = placeOrder("alice", token, ORDER);
        first.then().statusCode(201);

        // Another transaction holds the orders table: any read of an order would wait for it.
        try (Connection db = TestServers.connect()) {
            db.setAutoCommit(false);
            try (Statement lock = db.createStatement()) {
                lock.execute("LOCK TABLE orders IN ACCESS EXCLUSIVE MODE");
            }
            Response again = as("alice").config(RestAssured.config().httpClient(HttpClientConfig.httpClientConfig()
                            .setParam("http.socket.timeout", 10_000)))
                    .header("Order-Token", token).contentType("application/json").body(ORDER).post("/orders");
            db.rollback();
            again.then().statusCode(201).header("Idempotent-Replayed", "true");
            assertThat(again.asString()).isEqualTo(first.asString());
        }
    }

    @Test
    void theSameTokenWithAnotherPayloadIsRefused() {
        String token = newToken("alice");
        placeOrder("alice", token, ORDER).then().statusCode(201);

        placeOrder("alice", token, ORDER.replace("\"quantity\":2", "\"quantity\":3")).then()
                .statusCode(422)
                .contentType("application/problem+json")
                .body("code", equalTo("order-token-reused"));
    }

    @Test
    void anotherCustomersTokenIsInvalidAndStaysUsableByItsOwner() {
        String alicesToken = newToken("alice");

        placeOrder("bob", alicesToken, ORDER).then()
                .statusCode(410)
                .body("code", equalTo("order-token-invalid"));

        placeOrder("alice", alicesToken, ORDER).then().statusCode(201).header("Idempotent-Replayed", (String) null);
    }

    @Test
    void anUnknownTokenIsInvalid() {
        placeOrder("alice", "no-such-token", ORDER).then()
                .statusCode(410)
                .contentType("application/problem+json")
                .body("code", equalTo("order-token-invalid"));
    }

    @Test
    void aMissingTokenIsABadRequest() {
        placeOrder("alice", null, ORDER).then()
                .statusCode(400)
                .body("code", equalTo("order-token-missing"));
    }

    @Test
    void badInputDoesNotUseUpTheToken() {
        String token = newToken("alice");
        placeOrder("alice", token, ORDER.replace("CNY", "XXX")).then()
                .statusCode(400)
                .body("code", equalTo("validation-failed"))
                .body("errors[0].field", equalTo("currency"));

        placeOrder("alice", token, ORDER).then().statusCode(201).header("Idempotent-Replayed", (String) null);
    }

    @Test
    void withoutCredentialsTheApiAsksForBasicAuthentication() {
        given().post("/orders/token").then()
                .statusCode(401)
                .header("WWW-Authenticate", matchesPattern("Basic.*"))
                .contentType("application/problem+json");
        given().auth().preemptive().basic("alice", "wrong").post("/orders/token").then()
                .statusCode(401)
                .header("WWW-Authenticate", matchesPattern("Basic.*"));
    }
}
