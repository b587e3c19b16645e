package io.orderflow.catalog;

import static io.orderflow.catalog.TestCatalog.newProduct;
import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.json;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static io.orderflow.support.Products.orderOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.orderflow.support.Api;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * A product's stock history for staff, derived from what is stored: an adjustment with its who and why, and each order's
 * reservation (its customer), release when cancelled (who cancelled, or the system at the payment deadline) and shipment
 * (who shipped), each with the exact
 * signed change of the count it names, newest first, a page at a time.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class StockHistoryTest {

    private static final String PROBLEM = "application/problem+json";

    @Test
    void anAdjustmentAndEachOrdersReservationReleaseAndShipmentAppearWithWhoAndWhy() {
        String sku = newProduct(10);
        as("ops").contentType(ContentType.JSON).body("{\"delta\":5,\"reason\":\"delivery from Anxi\"}")
                .post("/products/{sku}/stock", sku).then().statusCode(200).body("onHand", equalTo(15));
        String cancelled = ordered("alice", sku, 2);
        act("alice", cancelled, "cancel").then().statusCode(200);
        String shipped = ordered("bob", sku, 3);
        act("bob", shipped, "pay").then().statusCode(200);
        act("ops", shipped, "ship").then().statusCode(200);
        String expired = ordered("alice", sku, 1);
        Orders.execute("UPDATE orders SET pay_by = now() WHERE id = '" + expired + "'");
        await().atMost(Duration.ofSeconds(10)).until(() -> "cancelled".equals(Orders.value("SELECT status FROM orders WHERE id = ?::uuid", expired)));

        List<JsonNode> history = all(sku, 100);

        assertThat(history).extracting(entry -> String.join(" ", entry.path("kind").asText(), entry.path("quantity").asText(),
                entry.path("changes").asText(), entry.path("actor").asText(), entry.path("reason").asText(entry.path("orderId").asText())))
                .containsExactly(
                        "release -1 reserved system " + expired,
                        "reservation 1 reserved alice " + expired,
                        "shipment -3 onHand ops " + shipped,
                        "reservation 3 reserved bob " + shipped,
                        "release -2 reserved alice " + cancelled,
                        "reservation 2 reserved alice " + cancelled,
                        "adjustment 5 onHand ops delivery from Anxi");
        assertThat(history.get(6).path("onHandAfter").asInt()).isEqualTo(15);
        assertThat(history.get(6).has("orderId")).isFalse();
        assertThat(history.get(2).path("orderNumber").asLong()).isEqualTo(json(as("ops").get("/orders/{id}", shipped)).path("orderNumber").asLong());
        assertThat(history).extracting(entry -> Instant.parse(entry.path("at").asText())).isSortedAccordingTo(Comparator.reverseOrder());
        assertThat(TestCatalog.levels(sku)).isEqualTo(new TestCatalog.Levels(12, 0));
        assertThat(all(sku, 2)).as("the same history, two entries at a time").isEqualTo(history);
    }

    @Test
    void customersAreRefusedAndAnUnknownSkuOrABadCursorIsAProblem() {
        String sku = newProduct(1);
        as("alice").get("/products/{sku}/stock/history", sku).then().statusCode(403).contentType(PROBLEM).body("code", equalTo("forbidden"));
        for (String unknown : List.of("NO-SUCH-SKU", "not a sku")) {
            as("ops").get("/products/{sku}/stock/history", unknown).then().statusCode(404).contentType(PROBLEM)
                    .body("code", equalTo("product-not-found"));
        }
        for (String query : List.of("limit=0", "limit=101", "after=@@@", "after=bm90IGEgY3Vyc29y")) {
            as("ops").get("/products/" + sku + "/stock/history?" + query).then().statusCode(400).contentType(PROBLEM)
                    .body("code", equalTo("validation-failed"));
        }
        as("ops").get("/products/{sku}/stock/history", sku).then().statusCode(200).body("items.size()", equalTo(0)).body("next", equalTo(null));
    }

    private static String ordered(String customer, String sku, int quantity) {
        return Api.field(placeOrder(customer, newToken(customer), orderOf(sku, quantity)).then().statusCode(201).extract().response(), "id");
    }

    /** The whole history, read {@code limit} entries at a time. */
    private static List<JsonNode> all(String sku, int limit) {
        List<JsonNode> entries = new ArrayList<>();
        String after = "";
        do {
            JsonNode page = json(as("ops").queryParam("limit", limit).queryParam("after", after).get("/products/{sku}/stock/history", sku)
                    .then().statusCode(200).extract().response());
            page.path("items").forEach(entries::add);
            after = page.path("next").isNull() ? null : page.path("next").asText();
        } while (after != null);
        return entries;
    }
}
