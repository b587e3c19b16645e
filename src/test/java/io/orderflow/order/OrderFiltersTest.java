package io.orderflow.order;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.json;
import static io.orderflow.support.Api.newOrder;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * {@code GET /orders} for staff who look for orders: by customer, by the number people quote, by when the orders were
 * placed, each combined with the state and with the cursor. A customer's list stays their own whatever they ask for,
 * and a parameter the list does not take, or a value it cannot read, is a 400 naming it.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class OrderFiltersTest {

    @Test
    void staffFindACustomersOrdersNewestFirstAndNarrowThemByState() {
        String customer = newCustomer();
        String first = newOrder(customer);
        String second = newOrder(customer);
        String third = newOrder(customer);
        act(customer, second, "pay").then().statusCode(200);
        newOrder("bob");

        assertThat(ids(as("ops").queryParam("customer", customer))).containsExactly(third, second, first);
        assertThat(ids(as("ops").queryParam("customer", customer).queryParam("status", "created"))).containsExactly(third, first);
        assertThat(ids(as("ops").queryParam("customer", customer).queryParam("status", "paid"))).containsExactly(second);
        assertThat(ids(as("ops").queryParam("customer", "no-such-customer"))).isEmpty();
    }

    @Test
    void staffFindAnOrderByItsNumber() {
        String id = newOrder(newCustomer());
        long number = json(as("ops").get("/orders/{id}", id)).get("orderNumber").asLong();

        assertThat(ids(as("ops").queryParam("orderNumber", number))).containsExactly(id);
        assertThat(ids(as("ops").queryParam("orderNumber", number).queryParam("status", "paid"))).as("not paid").isEmpty();
        assertThat(ids(as("ops").queryParam("orderNumber", Long.MAX_VALUE))).isEmpty();
    }

    /** createdFrom is inclusive and createdTo exclusive, so that consecutive ranges never list an order twice. */
    @Test
    void staffFindOrdersPlacedInATimeRange() {
        String customer = newCustomer();
        String january10 = placedAt(customer, "2026-01-10T08:00:00Z");
        String january20 = placedAt(customer, "2026-01-20T00:00:00Z");
        String february5 = placedAt(customer, "2026-02-05T00:00:00Z");

        assertThat(ids(as("ops").queryParam("customer", customer).queryParam("createdFrom", "2026-01-20T00:00:00Z")))
                .containsExactly(february5, january20);
        assertThat(ids(as("ops").queryParam("customer", customer).queryParam("createdTo", "2026-01-20T00:00:00Z")))
                .containsExactly(january10);
        assertThat(ids(as("ops").queryParam("customer", customer).queryParam("createdFrom", "2026-01-15T00:00:00Z")
                .queryParam("createdTo", "2026-02-05T00:00:00Z"))).containsExactly(january20);
        assertThat(ids(as("ops").queryParam("createdFrom", "2026-01-10T08:00:00Z").queryParam("createdTo", "2026-01-10T08:00:00.000001Z")))
                .containsExactly(january10);
    }

    @Test
    void theFiltersCarryOverEveryPageOfTheCursor() {
        String customer = newCustomer();
        List<String> placed = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            placed.add(0, newOrder(customer));
        }
        act(customer, placed.get(0), "cancel").then().statusCode(200);
        newOrder("bob");

        List<String> seen = new ArrayList<>();
        String after = null;
        do {
            RequestSpecification page = as("ops").queryParam("customer", customer).queryParam("status", "created").queryParam("limit", 2);
            JsonNode answer = json(after == null ? page.get("/orders") : page.queryParam("after", after).get("/orders"));
            answer.get("items").forEach(order -> seen.add(order.get("id").asText()));
            after = answer.get("next").isNull() ? null : answer.get("next").asText();
        } while (after != null);

        assertThat(seen).containsExactlyElementsOf(placed.subList(1, 5));
    }

    @Test
    void aCustomersListIsAlwaysTheirOwn() {
        String customer = newCustomer();
        String mine = newOrder(customer);
        String bobs = newOrder("bob");

        assertThat(ids(as(customer))).containsExactly(mine);
        assertThat(ids(as(customer).queryParam("customer", customer))).containsExactly(mine);
        // Another customer's name is refused rather than quietly answered with one's own orders.
        as(customer).queryParam("customer", "bob").get("/orders").then()
                .statusCode(403).contentType("application/problem+json").body("code", equalTo("forbidden"));
        // Bob's order number finds nothing among the customer's orders.
        long bobsNumber = json(as("bob").get("/orders/{id}", bobs)).get("orderNumber").asLong();
        assertThat(ids(as(customer).queryParam("orderNumber", bobsNumber))).isEmpty();
        // Ways of spelling another customer are another customer, never a way around the rule.
        for (String other : List.of("Bob", "bob ", " bob", "%")) {
            as(customer).queryParam("customer", other).get("/orders").then().statusCode(403);
        }
        // An empty customer is no filter: still their own.
        assertThat(ids(as(customer).queryParam("customer", ""))).containsExactly(mine);
    }

    @Test
    void aValueTheListCannotReadIsRefusedNamingItsParameter() {
        refused("orderNumber", "orderNumber=0", "orderNumber=-1", "orderNumber=12.5", "orderNumber=%23100001", "orderNumber=9223372036854775808");
        refused("createdFrom", "createdFrom=yesterday", "createdFrom=2026-01-31", "createdFrom=%2B300000-01-01T00:00:00Z");
        refused("createdTo", "createdTo=2026-02-30T00:00:00Z", "createdFrom=2026-02-01T00:00:00Z&createdTo=2026-02-01T00:00:00Z",
                "createdFrom=2026-02-01T00:00:00Z&createdTo=2026-01-01T00:00:00Z");
        refused("customer", "customer=al%00ice", "customer=" + "a".repeat(256));
    }

    @Test
    void aQueryParameterACallDoesNotTakeIsRefusedNamingIt() {
        String id = newOrder("alice");
        // A misspelt filter would otherwise list every order as if none had been asked for.
        refused("stauts", "stauts=paid");
        refused("Status", "Status=paid");
        as("alice").get("/orders/{id}?x=1", id).then()
                .statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("validation-failed")).body("errors[0].field", equalTo("x"));
        as("ops").post("/orders/{id}/ship?force=true", id).then().statusCode(400).body("errors[0].field", equalTo("force"));
        assertThat(json(as("ops").get("/orders/{id}", id)).get("status").asText()).as("nothing was done").isEqualTo("created");
        // POST as well, before the endpoint runs.
        as("alice").post("/orders/token?ttl=3600").then().statusCode(400).body("errors[0].field", equalTo("ttl"));
        // Credentials are checked first: a stranger learns nothing from the parameters.
        given().get("/orders?stauts=paid").then().statusCode(401);
        // The pages are left alone: browsers arrive with whatever a link added.
        given().redirects().follow(false).get("/login?utm_source=mail").then().statusCode(200);
    }

    private static void refused(String parameter, String... queries) {
        for (String query : queries) {
            Response answer = as("ops").urlEncodingEnabled(false).get("/orders?" + query);
            answer.then().statusCode(400).contentType("application/problem+json").body("code", equalTo("validation-failed"));
            assertThat(json(answer).at("/errors/0/field").asText()).as(query).isEqualTo(parameter);
        }
    }

    /** A customer of this test alone, so that the list of their orders holds exactly what the test placed. */
    private static String newCustomer() {
        String name = "filtered-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(name, "customer");
        return name;
    }

    /** A new order of the customer, dated as if placed at that instant. */
    private static String placedAt(String customer, String instant) {
        String id = newOrder(customer);
        Orders.execute("UPDATE orders SET created_at = TIMESTAMPTZ '" + instant + "' WHERE id = '" + id + "'");
        return id;
    }

    private static List<String> ids(RequestSpecification request) {
        JsonNode page = json(request.queryParam("limit", 100).get("/orders").then().statusCode(200).extract().response());
        List<String> ids = new ArrayList<>();
        page.get("items").forEach(order -> ids.add(order.get("id").asText()));
        return ids;
    }
}
