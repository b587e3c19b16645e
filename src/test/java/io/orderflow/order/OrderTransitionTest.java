package io.orderflow.order;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Every (state, event) pair of the lifecycle, as the owner alice and the staff member ops see it. */
@QuarkusTest
@WithTestResource(TestServers.class)
class OrderTransitionTest {

    /** The actions that lead to each state from a new order. */
    private static final List<String> CREATED = List.of();
    private static final List<String> PAID = List.of("pay");
    private static final List<String> SHIPPED = List.of("pay", "ship");
    private static final List<String> DELIVERED = List.of("pay", "ship", "deliver");
    private static final List<String> CANCELLED = List.of("cancel");
    private static final List<String> CANCELLED_AFTER_PAYMENT = List.of("pay", "cancel");

    static Stream<Arguments> everyStateAndEvent() {
        return Stream.of(
                applied(CREATED, "pay", "paid"),
                rejected(CREATED, "ship", "cancel"),
                rejected(CREATED, "deliver", "cancel"),
                applied(CREATED, "cancel", "cancelled"),

                repeated(PAID, "pay", "paid"),
                applied(PAID, "ship", "shipped"),
                rejected(PAID, "deliver", "ship", "cancel"),
                applied(PAID, "cancel", "cancelled"),

                repeated(SHIPPED, "pay", "shipped"),
                repeated(SHIPPED, "ship", "shipped"),
                applied(SHIPPED, "deliver", "delivered"),
                rejected(SHIPPED, "cancel"), // asked by alice, who may not deliver

                repeated(DELIVERED, "pay", "delivered"),
                repeated(DELIVERED, "ship", "delivered"),
                repeated(DELIVERED, "deliver", "delivered"),
                rejected(DELIVERED, "cancel"),

                rejected(CANCELLED, "pay"),
                rejected(CANCELLED, "ship"),
                rejected(CANCELLED, "deliver"),
                repeated(CANCELLED, "cancel", "cancelled"),

                repeated(CANCELLED_AFTER_PAYMENT, "pay", "cancelled"),
                rejected(CANCELLED_AFTER_PAYMENT, "ship"),
                rejected(CANCELLED_AFTER_PAYMENT, "deliver"),
                repeated(CANCELLED_AFTER_PAYMENT, "cancel", "cancelled"));
    }

    @ParameterizedTest(name = "{0} then {1}: {2}")
    @MethodSource("everyStateAndEvent")
    void eachStateAnswersEachEvent(List<String> path, String event, String outcome, String status, List<String> allowed) {
        String id = orderAfter(path);
        Response answer = act(actorFor(event), id, event);

        switch (outcome) {
            case "applied" -> answer.then()
                    .statusCode(200)
                    .header("Idempotent-Replayed", (String) null)
                    .body("status", equalTo(status))
                    .body("version", equalTo(path.size() + 1));
            case "repeated" -> answer.then()
                    .statusCode(200)
                    .header("Idempotent-Replayed", "true")
                    .body("status", equalTo(status))
                    .body("version", equalTo(path.size()));
            default -> answer.then()
                    .statusCode(409)
                    .contentType("application/problem+json")
                    .body("code", equalTo("invalid-transition"))
                    .body("currentStatus", equalTo(statusAfter(path)))
                    .body("allowedActions", equalTo(allowed));
        }
        int applied = path.size() + ("applied".equals(outcome) ? 1 : 0);
        as("alice").get("/orders/{id}", id).then()
                .body("version", equalTo(applied))
                .body("history.size()", equalTo(applied));
    }

    @Test
    void aLateRepeatAnswersTheOrderAsItIsNow() {
        String id = orderAfter(SHIPPED);

        act("alice", id, "pay").then()
                .statusCode(200)
                .header("Idempotent-Replayed", "true")
                .body("status", equalTo("shipped"))
                .body("allowedActions", equalTo(List.of()));
        as("ops").get("/orders/{id}", id).then()
                .body("allowedActions", contains("deliver"))
                .body("history.event", contains("pay", "ship"))
                .body("history.from", contains("created", "paid"))
                .body("history.to", contains("paid", "shipped"))
                .body("history.actor", contains("customer", "staff"));
        // A customer is told that staff shipped it, never which member.
        as("alice").get("/orders/{id}", id).then().body("history.actor", contains("customer", "staff"));
    }

    @Test
    void customersMayNotShipOrDeliver() {
        String id = orderAfter(PAID);
        act("alice", id, "ship").then().statusCode(403).contentType("application/problem+json").body("code", equalTo("forbidden"));
        act("alice", orderAfter(SHIPPED), "deliver").then().statusCode(403);
        act("ops", newOrder("alice"), "pay").then().statusCode(403);
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("paid")).body("version", equalTo(1));
    }

    @Test
    void anotherCustomersOrderDoesNotExistForYou() {
        String id = newOrder("alice");
        act("bob", id, "cancel").then().statusCode(404).body("code", equalTo("order-not-found"));
        act("bob", id, "pay").then().statusCode(404);
        act("alice", "0190a6e2-0000-7000-8000-000000000000", "pay").then().statusCode(404);
        act("alice", "nonsense", "pay").then().statusCode(404);
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));
    }

    @Test
    void staffMayCancelAnyOrder() {
        String id = orderAfter(PAID);
        act("ops", id, "cancel").then().statusCode(200).body("status", equalTo("cancelled"));
        as("alice").get("/orders/{id}", id).then().body("history[1].event", equalTo("cancel"));
    }

    @Test
    void anUnknownActionIsNotFound() {
        as("alice").post("/orders/{id}/refund", newOrder("alice")).then().statusCode(404).contentType("application/problem+json");
    }

    // ---------------------------------------------------------------- the table's vocabulary

    private static Arguments applied(List<String> path, String event, String status) {
        return Arguments.of(Named.of(describe(path), path), event, "applied", status, List.of());
    }

    private static Arguments repeated(List<String> path, String event, String status) {
        return Arguments.of(Named.of(describe(path), path), event, "repeated", status, List.of());
    }

    /** Refused with 409; {@code allowed} is what the same caller may do instead. */
    private static Arguments rejected(List<String> path, String event, String... allowed) {
        return Arguments.of(Named.of(describe(path), path), event, "rejected", null, List.of(allowed));
    }

    private static String describe(List<String> path) {
        return path.isEmpty() ? "created" : statusAfter(path) + " (" + String.join(", ", path) + ")";
    }

    private static String statusAfter(List<String> path) {
        return path.isEmpty() ? "created" : switch (path.get(path.size() - 1)) {
            case "pay" -> "paid";
            case "ship" -> "shipped";
            case "deliver" -> "delivered";
            default -> "cancelled";
        };
    }

    /** Owners pay; staff ship and deliver; cancel is asked by the owner. */
    private static String actorFor(String event) {
        return event.equals("ship") || event.equals("deliver") ? "ops" : "alice";
    }

    static String orderAfter(List<String> path) {
        String id = newOrder("alice");
        for (String event : path) {
            act(actorFor(event), id, event).then().statusCode(200);
        }
        return id;
    }
}
