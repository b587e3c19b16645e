package io.orderflow.order;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

@QuarkusTest
@WithTestResource(TestServers.class)
class OrderQueryTest {

    @Test
    void customersSeeOnlyTheirOwnOrders() {
        String id = placeOrder("alice", newToken("alice"), ORDER).path("id");

        as("alice").get("/orders/{id}", id).then().statusCode(200);
        as("ops").get("/orders/{id}", id).then().statusCode(200).body("allowedActions", contains("cancel"));
        as("bob").get("/orders/{id}", id).then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("code", equalTo("order-not-found"));
        as("bob").get("/orders").then().statusCode(200).body("items.id", not(hasItem(id)));
        as("ops").get("/orders?limit=100").then().statusCode(200).body("items.id", hasItem(id));
    }

    @Test
    void anOrderIsReadWithEachItemAndEachStepOnceAndInOrder() {
        // Items and history are read in one statement, a row for each pair of them: neither may come out repeated.
        String id = placeOrder("alice", newToken("alice"), """
                {"currency":"CNY","items":[{"sku":"MUG-CELADON-350","quantity":1},{"sku":"ABC-1","quantity":3},{"sku":"PEN-FOUNTAIN-F","quantity":2}]}""")
                .then().statusCode(201).extract().path("id");
        act("alice", id, "pay").then().statusCode(200);
        act("ops", id, "ship").then().statusCode(200);
        act("ops", id, "deliver").then().statusCode(200);

        as("alice").get("/orders/{id}", id).then()
                .statusCode(200)
                .body("items.sku", contains("MUG-CELADON-350", "ABC-1", "PEN-FOUNTAIN-F"))
                .body("items.quantity", contains(1, 3, 2))
                .body("history.event", contains("pay", "ship", "deliver"));
    }

    @Test
    void unknownAndMalformedIdsAreNotFound() {
        as("alice").get("/orders/{id}", "0190a6e2-0000-7000-8000-000000000000").then().statusCode(404);
        as("alice").get("/orders/{id}", "not-a-uuid").then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void pagesRunNewestFirstAndEndWithANullCursor() {
        List<String> mine = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            mine.add(0, placeOrder("bob", newToken("bob"), ORDER).path("id"));
        }

        List<String> seen = new ArrayList<>();
        String after = "";
        do {
            Response page = as("bob").queryParam("limit", 2).queryParam("after", after).get("/orders");
            page.then().statusCode(200).body("items.size()", lessThanOrEqualTo(2));
            seen.addAll(page.path("items.id"));
            after = page.path("next");
        } while (after != null);

        assertThat(seen).doesNotHaveDuplicates().containsSubsequence(mine);
        assertThat(seen.subList(0, 5)).isEqualTo(mine);
    }

    @Test
    void theStatusFilterShowsOnlyThatStatus() {
        placeOrder("bob", newToken("bob"), ORDER).then().statusCode(201);
        as("bob").get("/orders?status=created").then().statusCode(200).body("items.status", everyItem(equalTo("created")));
        as("bob").get("/orders?status=paid").then().statusCode(200).body("items.status", everyItem(equalTo("paid")));
    }

    @Test
    void badFiltersAreRefused() {
        for (String query : List.of("status=lost", "status=CREATED", "limit=0", "limit=101", "limit=ten", "limit=1.5", "after=@@@", "after=bm90LWEtdXVpZA")) {
            as("alice").get("/orders?" + query).then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .body("code", equalTo("validation-failed"));
        }
    }
}
