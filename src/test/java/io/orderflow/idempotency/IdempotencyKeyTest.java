package io.orderflow.idempotency;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.newToken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** Idempotency-Key on POST, as draft-ietf-httpapi-idempotency-key-header describes it. */
@QuarkusTest
@WithTestResource(TestServers.class)
class IdempotencyKeyTest {

    @AfterEach
    void databaseWorksAgain() {
        Orders.execute("DROP TRIGGER IF EXISTS simulated_outage ON orders");
    }

    @Test
    void aRetryWithTheSameKeyAndBodyGetsTheFirstAnswerAndDoesNothing() {
        String key = newKey();
        String firstToken = newToken("alice");
        String secondToken = newToken("alice");
        Response first = placeOrder("alice", key, firstToken, ORDER);
        first.then().statusCode(201).header("Idempotent-Replayed", (String) null);

        // A client that lost the answer retries with a fresh token: the key answers for the first order.
        Response again = placeOrder("alice", key, secondToken, ORDER);
        again.then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .header("Location", first.header("Location"))
                .header("Content-Type", first.header("Content-Type"));
        assertThat(again.asByteArray()).isEqualTo(first.asByteArray());
        assertThat(Orders.countForToken(firstToken)).isEqualTo(1);
        assertThat(Orders.countForToken(secondToken)).as("the handler ran once").isZero();
    }

    @Test
    void aReorderedButEqualBodyReplaysAndAChangedAmountIsRefused() {
        String key = newKey();
        Response first = placeOrder("alice", key, newToken("alice"), ORDER);
        first.then().statusCode(201);

        placeOrder("alice", key, newToken("alice"), """
                {
                  "items": [ { "unitPrice": "12.50", "quantity": 2, "sku": "ABC-1" } ],
                  "currency": "CNY"
                }""").then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .body("id", equalTo(first.path("id")));

        String changedAmount = ORDER.replace("12.50", "12.60");
        String token = newToken("alice");
        placeOrder("alice", key, token, changedAmount).then()
                .statusCode(422)
                .contentType("application/problem+json")
                .body("code", equalTo("idempotency-key-reused"));
        assertThat(Orders.countForToken(token)).isZero();
    }

    @Test
    void sixtyFourConcurrentRequestsWithOneKeyRunTheHandlerOnce() {
        String key = newKey();
        List<String> tokens = new ArrayList<>();
        List<Callable<Response>> calls = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            String token = newToken("alice");
            tokens.add(token);
            calls.add(() -> placeOrder("alice", key, token, ORDER));
        }
        List<Response> answers = Parallel.run(calls);

        assertThat(tokens.stream().mapToInt(Orders::countForToken).sum()).as("orders created").isEqualTo(1);
        assertThat(answers).extracting(Response::statusCode).allSatisfy(status -> assertThat(status).isIn(201, 409));
        List<Response> created = answers.stream().filter(answer -> answer.statusCode() == 201).toList();
        assertThat(created.stream().filter(answer -> answer.header("Idempotent-Replayed") == null)).hasSize(1);
        assertThat(created).extracting(Response::asString).containsOnly(created.get(0).asString());
        answers.stream().filter(answer -> answer.statusCode() == 409).forEach(conflict -> {
            assertThat(conflict.<String>path("code")).isEqualTo("idempotency-key-in-use");
            assertThat(conflict.header("Retry-After")).isNotNull();
        });
    }

    @Test
    void aServerFailureLeavesTheKeyForARetryThatRunsAgain() {
        String key = newKey();
        String token = newToken("alice");
        Orders.execute("""
                CREATE OR REPLACE FUNCTION simulated_outage() RETURNS trigger LANGUAGE plpgsql AS
                $$ BEGIN RAISE EXCEPTION 'simulated outage' USING ERRCODE = '57P01'; END $$""");
        Orders.execute("CREATE TRIGGER simulated_outage BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION simulated_outage()");
        placeOrder("alice", key, token, ORDER).then().statusCode(503);

        databaseWorksAgain();
        placeOrder("alice", key, token, ORDER).then().statusCode(201).header("Idempotent-Replayed", (String) null);
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    @Test
    void aValidationFailureLeavesTheKeyForTheCorrectedRequest() {
        String key = newKey();
        String token = newToken("alice");
        placeOrder("alice", key, token, ORDER.replace("\"quantity\":2", "\"quantity\":0")).then()
                .statusCode(400)
                .body("code", equalTo("validation-failed"));

        placeOrder("alice", key, token, ORDER).then().statusCode(201).header("Idempotent-Replayed", (String) null);
    }

    @Test
    void theKeyAnswersBeforeTheBodyAndTheTokenAreChecked() {
        String key = newKey();
        Response first = placeOrder("alice", key, newToken("alice"), ORDER);
        first.then().statusCode(201);

        // POST /orders claims its key together with its token, after the body is read; a request refused
        // before that is still answered by its key first, as the contract orders the checks.
        placeOrder("alice", key, newToken("alice"), ORDER.replace("\"quantity\":2", "\"quantity\":0")).then()
                .statusCode(422)
                .body("code", equalTo("idempotency-key-reused"));
        placeOrder("alice", key, newToken("alice"), "{\"items\": [").then()
                .statusCode(422)
                .body("code", equalTo("idempotency-key-reused"));
        as("alice").header("Idempotency-Key", key).contentType(ContentType.JSON).body(ORDER).post("/orders").then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .body("id", equalTo(first.path("id")));

        // A fresh key on a refused request is freed for the corrected one.
        String fresh = newKey();
        as("alice").header("Idempotency-Key", fresh).contentType(ContentType.JSON).body(ORDER).post("/orders").then()
                .statusCode(400)
                .body("code", equalTo("order-token-missing"));
        String token = newToken("alice");
        placeOrder("alice", fresh, token, ORDER).then().statusCode(201).header("Idempotent-Replayed", (String) null);
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    @Test
    void anInvalidTransitionIsReplayedEvenAfterTheOrderChanged() {
        String id = newOrder("alice");
        String key = newKey();
        Response refused = act("ops", key, id, "ship");
        refused.then().statusCode(409).body("code", equalTo("invalid-transition")).body("currentStatus", equalTo("created"));

        act("alice", newKey(), id, "pay").then().statusCode(200);
        Response replayed = act("ops", key, id, "ship");
        replayed.then().statusCode(409).header("Idempotent-Replayed", "true").contentType("application/problem+json");
        assertThat(replayed.asString()).isEqualTo(refused.asString());
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("paid"));
    }

    @Test
    void aPaymentRetriedWithItsKeyIsAppliedOnce() {
        String id = newOrder("alice");
        String key = newKey();
        Response paid = act("alice", key, id, "pay");
        paid.then().statusCode(200).body("status", equalTo("paid"));
        act("ops", newKey(), id, "ship").then().statusCode(200);

        Response retried = act("alice", key, id, "pay");
        retried.then().statusCode(200).header("Idempotent-Replayed", "true");
        assertThat(retried.asString()).isEqualTo(paid.asString());
        as("alice").get("/orders/{id}", id).then().body("history.event", equalTo(List.of("pay", "ship")));
    }

    @Test
    void payNeedsAKey() {
        String id = newOrder("alice");
        as("alice").post("/orders/{id}/pay", id).then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("idempotency-key-missing"));
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));
        // Other POSTs take a key but do not need one.
        as("alice").post("/orders/{id}/cancel", id).then().statusCode(200);
    }

    @Test
    void malformedKeysAreRefused() {
        String id = newOrder("alice");
        for (String key : List.of("", "\"\"", "a b", "caf\u00e9", "x".repeat(256), "\"unterminated", "\"a\"b\"", "\"bad \\escape\"")) {
            as("alice").header("Idempotency-Key", key).post("/orders/{id}/pay", id).then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .body("code", equalTo("idempotency-key-invalid"));
        }
        as("alice").header("Idempotency-Key", "one").header("Idempotency-Key", "two").post("/orders/{id}/pay", id).then()
                .statusCode(400)
                .body("code", equalTo("idempotency-key-invalid"));
        act("alice", "x".repeat(255), id, "pay").then().statusCode(200);
        as("alice").get("/orders/{id}", id).then().body("version", equalTo(1));
    }

    @Test
    void aQuotedKeyIsItsUnquotedValue() {
        String key = newKey();
        Response issued = as("alice").header("Idempotency-Key", key).post("/orders/token");
        issued.then().statusCode(201);

        Response again = as("alice").header("Idempotency-Key", "\"" + key + "\"").post("/orders/token");
        again.then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .header("Cache-Control", "no-store")
                .body("token", equalTo(issued.path("token")));
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("quotedKeys")
    void aQuotedKeyIsKeptAsItsUnquotedValue(String action, String header, String key) {
        String id = newOrder("alice");
        Response first = act("alice", header, id, action);
        first.then().statusCode(200).header("Idempotent-Replayed", (String) null);

        Response again = act("alice", header, id, action);
        again.then().statusCode(200).header("Idempotent-Replayed", "true");
        assertThat(again.asString()).isEqualTo(first.asString());
        act("alice", key, id, action).then().statusCode(200).header("Idempotent-Replayed", "true");
        assertThat(Orders.value("SELECT command_id FROM order_history WHERE order_id = ?", id)).isEqualTo(key);
    }

    static Stream<Arguments> quotedKeys() {
        String longest = (newKey() + "x".repeat(255)).substring(0, 255);
        String escaped = "a\"b\\c-" + newKey();
        String escapedHeader = "\"" + escaped.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        return Stream.of("pay", "cancel").flatMap(action -> Stream.of(
                Arguments.of(action, Named.of("255 characters between quotes", "\"" + longest + "\""), longest),
                Arguments.of(action, Named.of("escapes", escapedHeader), escaped)));
    }

    @Test
    void anAmountIsTheSameRequestHoweverItIsSpelled() {
        String key = newKey();
        Response first = placeOrder("alice", key, newToken("alice"), ORDER);
        first.then().statusCode(201);

        String token = newToken("alice");
        placeOrder("alice", key, token, ORDER.replace("\"12.50\"", "\"12.5\"")).then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .body("id", equalTo(first.path("id")));
        placeOrder("alice", key, token, ORDER.replace("\"12.50\"", "12.5")).then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .body("id", equalTo(first.path("id")));
        assertThat(Orders.countForToken(token)).isZero();
    }

    @Test
    void keysOfDifferentCustomersAndPathsDoNotCollide() {
        String key = newKey();
        String alices = as("alice").header("Idempotency-Key", key).post("/orders/token").then().statusCode(201)
                .header("Idempotent-Replayed", (String) null).extract().path("token");
        String bobs = as("bob").header("Idempotency-Key", key).post("/orders/token").then().statusCode(201)
                .header("Idempotent-Replayed", (String) null).extract().path("token");
        assertThat(bobs).isNotEqualTo(alices);

        String first = newOrder("alice");
        String second = newOrder("alice");
        act("alice", key, first, "cancel").then().statusCode(200).header("Idempotent-Replayed", (String) null);
        act("alice", key, second, "cancel").then().statusCode(200).header("Idempotent-Replayed", (String) null);
        as("alice").get("/orders/{id}", second).then().body("status", equalTo("cancelled"));
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }

    private static Response placeOrder(String user, String key, String token, String body) {
        return as(user).header("Idempotency-Key", key).header("Order-Token", token).contentType(ContentType.JSON).body(body)
                .post("/orders");
    }

    private static Response act(String user, String key, String id, String action) {
        return as(user).header("Idempotency-Key", key).post("/orders/{id}/{action}", id, action);
    }
}
