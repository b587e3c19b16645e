package io.orderflow.support;

import static io.restassured.RestAssured.given;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.eclipse.microprofile.config.ConfigProvider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/** Requests as the demo users of the test profile: alice and bob (customers), ops (staff). */
public final class Api {

    public static final String ORDER = """
            {"currency":"CNY","items":[{"sku":"ABC-1","quantity":2,"unitPrice":"12.50"}]}""";

    /** {@link #ORDER} to a shipping address of its own: for a customer who has none saved (a bearer token's new subject). */
    public static final String ORDER_WITH_ADDRESS = """
            {"currency":"CNY","items":[{"sku":"ABC-1","quantity":2,"unitPrice":"12.50"}],
             "shippingAddress":{"name":"Li Lei","lines":["8 Century Avenue"],"city":"Shanghai","postalCode":"200120","country":"CN"}}""";

    /** {@link #ORDER} written otherwise (members reordered, the price a number), which is the same request. */
    public static final String ORDER_REWRITTEN = """
            {"items":[{"unitPrice":12.5,"quantity":2,"sku":"ABC-1"}],"currency":"CNY"}""";

    private static final ObjectMapper JSON = new ObjectMapper();

    private Api() {
    }

    /** A request as RestAssured's {@code given()} starts one, with a cheaper HTTP client ({@link PreparedHttpClients}). */
    public static RequestSpecification request() {
        return given().config(PreparedHttpClients.config());
    }

    public static RequestSpecification as(String user) {
        return request().auth().preemptive().basic(user, user).accept(ContentType.JSON);
    }

    /** Requests as the app's own REST clients call the sandbox providers: with the provider's secret API key. */
    public static RequestSpecification asProviderClient() {
        String key = ConfigProvider.getConfig().getValue("orders.payments.api-key", String.class);
        return request().header("Authorization", "Bearer " + key).accept(ContentType.JSON);
    }

    public static String newToken(String user) {
        return field(as(user).post("/orders/token").then().statusCode(201).extract().response(), "token");
    }

    /** A new order of {@code user}, in state created; returns its id. */
    public static String newOrder(String user) {
        return field(placeOrder(user, newToken(user), ORDER).then().statusCode(201).extract().response(), "id");
    }

    /**
     * An answer's JSON body, read by Jackson. RestAssured's {@code path(...)} compiles a Groovy script on
     * every call, which costs a busy test far more CPU than its request: helpers and loops read here.
     */
    public static JsonNode json(Response response) {
        try {
            return JSON.readTree(response.asByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException("Not JSON: " + response.asString(), e);
        }
    }

    /** The events of an order's history (GET /orders/{id}), oldest first. */
    public static List<String> historyEvents(JsonNode order) {
        List<String> events = new ArrayList<>();
        order.path("history").forEach(entry -> events.add(entry.path("event").asText()));
        return events;
    }

    /** A top-level text field of an answer's JSON body, or null when it has none. */
    public static String field(Response response, String name) {
        JsonNode value = json(response).get(name);
        return value == null || value.isNull() ? null : value.asText();
    }

    /** POST /orders/{id}/{action} (pay, ship, deliver, cancel), each call with a fresh Idempotency-Key. */
    public static Response act(String user, String id, String action) {
        return as(user).header("Idempotency-Key", UUID.randomUUID().toString()).post("/orders/{id}/{action}", id, action);
    }

    /** POST /orders with a token and a JSON body. */
    public static Response placeOrder(String user, String token, String body) {
        return placeOrder(as(user), token, body);
    }

    /** POST /orders with an Idempotency-Key, a token and a JSON body. */
    public static Response placeOrderWithKey(String user, String key, String token, String body) {
        return placeOrder(as(user).header("Idempotency-Key", key), token, body);
    }

    private static Response placeOrder(RequestSpecification request, String token, String body) {
        request.contentType(ContentType.JSON).body(body);
        if (token != null) {
            request.header("Order-Token", token);
        }
        return request.post("/orders");
    }
}
