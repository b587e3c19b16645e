package io.orderflow.shared.openapi;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.asProviderClient;
import static io.orderflow.support.Products.newProduct;
import static io.orderflow.support.Products.orderOf;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import com.atlassian.oai.validator.restassured.RestAssuredRequest;
import com.atlassian.oai.validator.restassured.RestAssuredResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.orderflow.shared.webhook.EventSignature;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.Filter;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * Recorded traffic, every operation with its success and its main problem answers, goes through a
 * validator of responses against the app's own /q/openapi: a strict client generated from the document
 * must be able to read every answer the API gives (the last page's {@code "next": null}, an amount as a
 * decimal string), and every request the API takes must be one the document allows (an amount as the
 * recommended string); requests wrong on purpose are not judged.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class ApiDocumentTrafficTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> violations = new ArrayList<>();
    private final Set<String> answers = new TreeSet<>();
    /** Checks the answer, and the request too: a request the API takes must be one the document allows. */
    private Filter checked;
    /** Checks the answer only: the request is wrong on purpose. */
    private Filter checkedAnswer;

    /** Per test: RestAssured knows the app's port only once a test runs. */
    @BeforeEach
    void validatorsOfTheServedDocument() throws IOException {
        String served = given().accept(ContentType.JSON).get("/q/openapi?format=json").then().statusCode(200).extract().asString();
        String document = asOpenApi30(served);
        OpenApiInteractionValidator validator = OpenApiInteractionValidator.createForInlineApiSpecification(document).build();
        OpenApiInteractionValidator answerValidator = OpenApiInteractionValidator.createForInlineApiSpecification(document)
                .withLevelResolver(LevelResolver.create().withLevel("validation.request", ValidationReport.Level.IGNORE).build())
                .build();
        checked = checkingWith(validator);
        checkedAnswer = checkingWith(answerValidator);
    }

    private Filter checkingWith(OpenApiInteractionValidator validator) {
        return (request, response, context) -> {
            Response answer = context.next(request, response);
            String call = request.getMethod() + " " + request.getURI().replaceFirst("^https?://[^/]+", "") + " -> " + answer.statusCode();
            answers.add(request.getMethod() + " " + answer.statusCode());
            validator.validate(RestAssuredRequest.of(request), RestAssuredResponse.of(answer)).getMessages().stream()
                    .filter(message -> message.getLevel() == ValidationReport.Level.ERROR)
                    .forEach(message -> violations.add(call + ": " + message.getKey() + " " + message.getMessage()));
            return answer;
        };
    }

    @Test
    void theValidatorRefusesWhatTheDocumentDoesNotAllow() throws IOException {
        String served = given().accept(ContentType.JSON).get("/q/openapi?format=json").then().statusCode(200).extract().asString();
        OpenApiInteractionValidator validator = OpenApiInteractionValidator.createForInlineApiSpecification(asOpenApi30(served)).build();
        SimpleResponse numberAsCursor = SimpleResponse.Builder.ok().withContentType("application/json")
                .withBody("{\"items\":[],\"next\":5}")
                .build();
        assertThat(validator.validateResponse("/orders", Request.Method.GET, numberAsCursor).hasErrors()).isTrue();
    }

    @Test
    void everyAnswerOfTheRecordedTrafficIsOneTheDocumentAllows() {
        ordersAndTheirTransitions();
        catalog();
        operations();
        sandbox();
        refusals();

        assertThat(answers).as("the statuses the traffic met").contains("POST 201", "GET 200", "POST 200", "POST 400", "GET 400",
                "POST 401", "GET 401", "POST 402", "POST 403", "GET 403", "GET 404", "POST 409", "POST 410", "POST 413", "POST 415",
                "POST 422", "PUT 200");
        assertThat(violations).as("answers /q/openapi does not allow").isEmpty();
    }

    private void ordersAndTheirTransitions() {
        String token = as("alice").post("/orders/token").then().statusCode(201).extract().path("token");
        Response placed = order("alice", token, ORDER).then().statusCode(201).extract().response();
        String id = placed.path("id");
        order("alice", token, ORDER).then().statusCode(201);
        order("alice", token, orderOf("ABC-1", 3)).then().statusCode(422);
        order(wrongly("alice"), null, ORDER).then().statusCode(400);
        order("alice", "no-such-token", ORDER).then().statusCode(410);
        order(wrongly("alice"), newToken("alice"), "{\"currency\":\"CNY\",\"items\":[]}").then().statusCode(400);
        order("alice", newToken("alice"), "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"ABC-1\",\"quantity\":1,\"unitPrice\":\"1.00\"}]}")
                .then().statusCode(409);
        order("alice", newToken("alice"), "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"ABC-1\",\"quantity\":1,\"unitPrice\":12.5}]}")
                .then().statusCode(201);
        order("alice", newToken("alice"), orderOf(newProduct("3.00", 1), 2)).then().statusCode(409);

        as("alice").get("/orders/{id}", id).then().statusCode(200);
        as("bob").get("/orders/{id}", id).then().statusCode(404);
        as("alice").queryParam("limit", 1).get("/orders").then().statusCode(200);
        // The last page: next is null.
        as("ops").queryParam("status", "delivered").queryParam("limit", 100).get("/orders").then().statusCode(200);
        wrongly("alice").queryParam("status", "created").queryParam("after", "not-a-cursor").get("/orders").then().statusCode(400);
        wrongly("alice").queryParam("limit", 0).get("/orders").then().statusCode(400);
        // Staff find orders by customer, state and time, and by number; a customer naming another is refused.
        as("ops").queryParam("customer", "alice").queryParam("status", "created").queryParam("createdFrom", "2026-01-01T00:00:00Z")
                .queryParam("createdTo", "2100-01-01T00:00:00Z").get("/orders").then().statusCode(200);
        long number = as("alice").get("/orders/{id}", id).then().statusCode(200).extract().jsonPath().getLong("orderNumber");
        as("ops").queryParam("orderNumber", number).get("/orders").then().statusCode(200);
        as("alice").queryParam("customer", "bob").get("/orders").then().statusCode(403);
        wrongly("ops").queryParam("createdFrom", "yesterday").get("/orders").then().statusCode(400);
        // A query parameter the call does not take.
        wrongly("alice").queryParam("stauts", "paid").get("/orders").then().statusCode(400);
        wrongly("alice").queryParam("x", "1").get("/orders/{id}", id).then().statusCode(400);

        wrongly("alice").post("/orders/{id}/pay", id).then().statusCode(400);
        String key = UUID.randomUUID().toString();
        pay("alice", id, key, "{}").then().statusCode(200);
        pay("alice", id, key, "{}").then().statusCode(200);
        pay("alice", id, key, "{\"paymentMethod\":\"pm_card_chargeDeclined\"}").then().statusCode(422);
        act("alice", id, "ship").then().statusCode(403);
        act("ops", id, "ship").then().statusCode(200);
        act("ops", id, "deliver").then().statusCode(200);
        act("alice", id, "cancel").then().statusCode(409);

        String declined = order("alice", newToken("alice"), orderOf("DECLINE-51", 1)).then().statusCode(201).extract().path("id");
        pay("alice", declined, UUID.randomUUID().toString(), "{}").then().statusCode(402);
        String refunded = order("alice", newToken("alice"), ORDER).then().statusCode(201).extract().path("id");
        pay("alice", refunded, UUID.randomUUID().toString(), "{\"paymentMethod\":\"pm_card_visa\"}").then().statusCode(200);
        act("alice", refunded, "cancel").then().statusCode(200);
        act("alice", UUID.randomUUID().toString(), "cancel").then().statusCode(404);
        String authenticating = order("alice", newToken("alice"), ORDER).then().statusCode(201).extract().path("id");
        pay("alice", authenticating, UUID.randomUUID().toString(), "{\"paymentMethod\":\"pm_card_authenticationRequired\"}").then()
                .statusCode(202);
    }

    private void catalog() {
        as("alice").queryParam("limit", 1).get("/products").then().statusCode(200);
        as("alice").queryParam("limit", 100).get("/products").then().statusCode(200);
        as("alice").get("/products/ABC-1").then().statusCode(200);
        as("alice").get("/products/NO-SUCH-SKU").then().statusCode(404);
        wrongly("alice").queryParam("limit", 101).get("/products").then().statusCode(400);
        String sku = "TR-" + UUID.randomUUID().toString().substring(0, 8);
        String product = "{\"sku\":\"" + sku + "\",\"name\":\"Traffic\",\"price\":\"4.20\",\"currency\":\"CNY\",\"onHand\":5,"
                + "\"active\":true}";
        as("alice").contentType(ContentType.JSON).body(product).post("/products").then().statusCode(403);
        as("ops").contentType(ContentType.JSON).body(product).post("/products").then().statusCode(201);
        as("ops").contentType(ContentType.JSON).body(product).post("/products").then().statusCode(409);
        wrongly("ops").contentType(ContentType.JSON).body("{\"sku\":\"X\",\"name\":\"\"}").post("/products").then().statusCode(400);
        as("ops").contentType(ContentType.JSON).body("{\"name\":\"Traffic\",\"price\":4.3,\"currency\":\"CNY\",\"active\":true}")
                .put("/products/{sku}", sku).then().statusCode(200);
        as("ops").contentType(ContentType.JSON).body("{\"delta\":3,\"reason\":\"delivery\"}").post("/products/{sku}/stock", sku).then()
                .statusCode(200);
        as("ops").contentType(ContentType.JSON).body("{\"delta\":-100,\"reason\":\"loss\"}").post("/products/{sku}/stock", sku).then()
                .statusCode(409);
        as("ops").queryParam("limit", 1).get("/products/{sku}/stock/history", sku).then().statusCode(200);
        as("alice").get("/products/{sku}/stock/history", sku).then().statusCode(403);
        as("ops").get("/products/NO-SUCH-SKU/stock/history").then().statusCode(404);
        as("ops").queryParam("after", "x").get("/products/{sku}/stock/history", sku).then().statusCode(400);
    }

    private void operations() {
        as("ops").get("/outbox/dead-letters").then().statusCode(200);
        as("alice").get("/outbox/dead-letters").then().statusCode(403);
        // It answers no content or a problem detail, so asking for JSON is not what the document lists; the answer is judged.
        wrongly("ops").header("Idempotency-Key", UUID.randomUUID().toString()).post("/outbox/dead-letters/{id}/retry", 999_999_999).then()
                .statusCode(404);
        as("ops").header("Idempotency-Key", UUID.randomUUID().toString()).post("/payments/reconciliation").then().statusCode(200);
        as("ops").get("/payments/reconciliation").then().statusCode(200);
        as("alice").get("/payments/reconciliation").then().statusCode(403);
        refusedRefunds();
        providerEvents();
    }

    /** The provider's notifications: one signed with the shared secret, one not. */
    private void providerEvents() {
        byte[] event = ("{\"id\":\"evt_" + UUID.randomUUID() + "\",\"type\":\"customer.created\"}").getBytes(StandardCharsets.UTF_8);
        String secret = ConfigProvider.getConfig().getValue("orders.payments.events.secret", String.class);
        given().filter(checkedAnswer).contentType(ContentType.JSON).header(EventSignature.HEADER, EventSignature.sign(secret, Instant.now(), event))
                .body(event).post("/payments/provider-events").then().statusCode(200);
        given().filter(checkedAnswer).contentType(ContentType.JSON).body(event).post("/payments/provider-events").then().statusCode(400);
    }

    /** A refund the provider refused for good, recorded as the outbox records one, listed and settled as given back by hand (nothing is sent). */
    private void refusedRefunds() {
        String orderId = UUID.randomUUID().toString();
        String refused = Orders.value("""
                INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at,
                    last_error_code, last_error_message)
                VALUES ('refund', CAST(? AS uuid), ?, ?, 'REFUSED', 1, now(), now(), 'provider-refused',
                    'The provider refused the call with 400: charge_already_refunded: Charge ch_x has already been refunded.')
                RETURNING id""", orderId, "refund:" + orderId,
                "{\"orderId\":\"" + orderId + "\",\"amount\":\"12.50\",\"currency\":\"EUR\",\"charge\":\"ch_x\"}");
        String settlement = "{\"resolution\":\"refunded-outside\",\"note\":\"Refunded by hand in the provider's dashboard.\"}";
        as("ops").get("/payments/refunds/refused").then().statusCode(200);
        as("alice").get("/payments/refunds/refused").then().statusCode(403);
        as("ops").contentType(ContentType.JSON).body(settlement).post("/payments/refunds/refused/{id}/settle", refused).then().statusCode(200);
        as("ops").contentType(ContentType.JSON).body(settlement).post("/payments/refunds/refused/{id}/settle", 999_999_999).then()
                .statusCode(404);
        as("alice").contentType(ContentType.JSON).body(settlement).post("/payments/refunds/refused/{id}/settle", refused).then()
                .statusCode(403);
        wrongly("ops").contentType(ContentType.JSON).body("{\"resolution\":\"refund-it\"}")
                .post("/payments/refunds/refused/{id}/settle", refused).then().statusCode(400);
    }

    private void sandbox() {
        String id = order("alice", newToken("alice"), ORDER).then().statusCode(201).extract().path("id");
        String charge = provider().contentType(ContentType.JSON).header("Idempotency-Key", "payment:" + id + ":1")
                .body("{\"orderId\":\"" + id + "\",\"amount\":\"25.00\",\"currency\":\"CNY\"}").post("/sandbox/payments/charges").then()
                .statusCode(201).extract().path("reference");
        provider().contentType(ContentType.JSON).header("Idempotency-Key", "payment:" + id + ":2")
                .body("{\"orderId\":\"" + id + "\",\"amount\":25.51,\"currency\":\"CNY\"}").post("/sandbox/payments/charges").then()
                .statusCode(402);
        provider().contentType(ContentType.JSON).body("{}").header("Idempotency-Key", "payment:" + id + ":3")
                .post("/sandbox/payments/charges").then().statusCode(400);
        provider().get("/sandbox/payments/charges/payment:{id}:1", id).then().statusCode(200);
        provider().get("/sandbox/payments/charges/payment:{id}:7", id).then().statusCode(404);
        provider().contentType(ContentType.JSON).body("{\"orderId\":\"" + id + "\"}")
                .post("/sandbox/payments/charges/payment:{id}:4/void", id)
                .then().statusCode(200);
        provider().contentType(ContentType.JSON).header("Idempotency-Key", "payment:" + id + ":4")
                .body("{\"orderId\":\"" + id + "\",\"amount\":\"25.00\",\"currency\":\"CNY\"}").post("/sandbox/payments/charges").then()
                .statusCode(410);
        provider().queryParam("since", Instant.now().minusSeconds(3600).toString()).queryParam("limit", 1)
                .get("/sandbox/payments/charges").then().statusCode(200);
        provider().queryParam("since", Instant.now().plusSeconds(3600).toString()).get("/sandbox/payments/charges").then().statusCode(200);
        given().spec(asProviderClient()).filter(checkedAnswer).get("/sandbox/payments/charges").then().statusCode(400);
        provider().contentType(ContentType.JSON).header("Idempotency-Key", "refund:" + id)
                .body("{\"orderId\":\"" + id + "\",\"amount\":\"25.00\",\"currency\":\"CNY\",\"charge\":\"" + charge + "\"}")
                .post("/sandbox/payments/refunds").then().statusCode(201);
        provider().contentType(ContentType.JSON).header("Idempotency-Key", "shipment:" + id).body("{\"orderId\":\"" + id + "\"}")
                .post("/sandbox/warehouse/shipments").then().statusCode(201);
        as("ops").queryParam("orderId", id).get("/sandbox/ledger").then().statusCode(200);
        wrongly("ops").queryParam("orderId", "nonsense").get("/sandbox/ledger").then().statusCode(400);
        as("alice").queryParam("orderId", id).get("/sandbox/ledger").then().statusCode(403);
        given().filter(checkedAnswer).queryParam("since", Instant.now().toString()).get("/sandbox/payments/charges").then().statusCode(401);
    }

    private void refusals() {
        given().filter(checkedAnswer).post("/orders/token").then().statusCode(401);
        given().filter(checkedAnswer).auth().preemptive().basic("alice", "wrong").get("/orders").then().statusCode(401);
        wrongly("alice").contentType(ContentType.JSON)
                .body("{\"currency\":\"CNY\",\"items\":[" + "{\"sku\":\"ABC-1\",\"quantity\":1},".repeat(60_000)
                + "{\"sku\":\"ABC-1\",\"quantity\":1}]}").header("Order-Token", newToken("alice")).post("/orders").then().statusCode(413);
        wrongly("alice").contentType("multipart/form-data; boundary=x").body("--x--".getBytes(StandardCharsets.US_ASCII))
                .header("Order-Token", newToken("alice")).post("/orders").then().statusCode(415);
        // What a form on another site makes a browser that signed in with Basic send.
        wrongly("alice").contentType(ContentType.TEXT).body("currency=CNY").header("Order-Token", newToken("alice"))
                .header("Origin", "https://evil.example").post("/orders").then().statusCode(403);
        wrongly("alice").contentType(ContentType.JSON).body("{\"currency\":").header("Order-Token", newToken("alice")).post("/orders")
                .then()
                .statusCode(400);
    }

    private RequestSpecification as(String user) {
        return given().filter(checked).auth().preemptive().basic(user, user).accept(ContentType.JSON);
    }

    /** A request the document does not allow, sent on purpose: only its answer is judged. */
    private RequestSpecification wrongly(String user) {
        return given().filter(checkedAnswer).auth().preemptive().basic(user, user).accept(ContentType.JSON);
    }

    /**
     * The served OpenAPI 3.1 document in the 3.0 terms the validator reads: given a 3.1 document it checks
     * no JSON type at all (an answer {@code "next": 5} passes). Each construct the document uses is
     * rewritten to its 3.0 equal: {@code type: [T, "null"]} to {@code type: T, nullable: true}, a schema's
     * {@code examples} list to one {@code example}, a numeric exclusive bound to a bound with a flag, and a
     * {@code $ref} with siblings (which 3.0 ignores) to an {@code allOf} of it.
     */
    static String asOpenApi30(String served) throws IOException {
        ObjectNode document = (ObjectNode) JSON.readTree(served);
        document.put("openapi", "3.0.3");
        downgrade(document);
        return JSON.writeValueAsString(document);
    }

    private static void downgrade(JsonNode node) {
        if (node instanceof ArrayNode array) {
            array.forEach(ApiDocumentTrafficTest::downgrade);
            return;
        }
        if (!(node instanceof ObjectNode object)) {
            return;
        }
        if (object.path("type").isArray()) {
            List<String> types = new ArrayList<>();
            object.path("type").forEach(type -> types.add(type.asText()));
            if (types.remove("null")) {
                object.put("nullable", true);
            }
            object.put("type", types.get(0));
        }
        if (object.path("examples").isArray() && (object.has("type") || object.has("$ref") || object.has("anyOf"))) {
            object.set("example", object.path("examples").get(0));
            object.remove("examples");
        }
        for (String bound : List.of("Minimum", "Maximum")) {
            if (object.path("exclusive" + bound).isNumber()) {
                object.set(bound.toLowerCase(Locale.ROOT), object.path("exclusive" + bound));
                object.put("exclusive" + bound, true);
            }
        }
        if (object.has("$ref") && object.size() > 1) {
            JsonNode ref = object.remove("$ref");
            object.putArray("allOf").addObject().set("$ref", ref);
        }
        object.forEach(ApiDocumentTrafficTest::downgrade);
    }

    private RequestSpecification provider() {
        return given().spec(asProviderClient()).filter(checked);
    }

    private String newToken(String user) {
        return as(user).post("/orders/token").then().statusCode(201).extract().path("token");
    }

    private Response order(String user, String token, String body) {
        return order(as(user), token, body);
    }

    private Response order(RequestSpecification caller, String token, String body) {
        RequestSpecification request = caller.contentType(ContentType.JSON).body(body);
        if (token != null) {
            request.header("Order-Token", token);
        }
        return request.post("/orders");
    }

    /** A pay with a JSON body: RestAssured would label an empty one a form. */
    private Response pay(String user, String id, String key, String body) {
        return as(user).header("Idempotency-Key", key).contentType(ContentType.JSON).body(body).post("/orders/{id}/pay", id);
    }

    private Response act(String user, String id, String action) {
        return as(user).header("Idempotency-Key", UUID.randomUUID().toString()).post("/orders/{id}/{action}", id, action);
    }
}
