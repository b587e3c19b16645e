package io.orderflow.support;

import static io.restassured.RestAssured.given;

import java.util.UUID;

import org.eclipse.microprofile.config.ConfigProvider;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/** Requests as the demo users of the test profile: alice and bob (customers), ops (staff). */
public final class Api {

    public static final String ORDER = """
            {"currency":"CNY","items":[{"sku":"ABC-1","quantity":2,"unitPrice":"12.50"}]}""";

    /** {@link #ORDER} written otherwise (members reordered, the price a number), which is the same request. */
    public static final String ORDER_REWRITTEN = """
            {"items":[{"unitPrice":12.5,"quantity":2,"sku":"ABC-1"}],"currency":"CNY"}""";

    private Api() {
    }

    public static RequestSpecification as(String user) {
        return given().auth().preemptive().basic(user, user).accept(ContentType.JSON);
    }

    /** Requests as the app's own REST clients call the sandbox providers: with the provider's secret API key. */
    public static RequestSpecification asProviderClient() {
        String key = ConfigProvider.getConfig().getValue("orders.payments.api-key", String.class);
        return given().header("Authorization", "Bearer " + key).accept(ContentType.JSON);
    }

    public static String newToken(String user) {
        return as(user).post("/orders/token").then().statusCode(201).extract().path("token");
    }

    /** A new order of {@code user}, in state created; returns its id. */
    public static String newOrder(String user) {
        return placeOrder(user, newToken(user), ORDER).then().statusCode(201).extract().path("id");
    }

    /** POST /orders/{id}/{action} (pay, ship, deliver, cancel), each call with a fresh Idempotency-Key. */
    public static Response act(String user, String id, String action) {
        return as(user).header("Idempotency-Key", UUID.randomUUID().toString()).post("/orders/{id}/{action}", id, action);
    }

    /** POST /orders with a token and a JSON body. */
    public static Response placeOrder(String user, String token, String body) {
        RequestSpecification request = as(user).contentType(ContentType.JSON).body(body);
        if (token != null) {
            request.header("Order-Token", token);
        }
        return request.post("/orders");
    }
}
