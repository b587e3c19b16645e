package io.orderflow.order;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.Products;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * An order says what was bought by name, as the product was called when it was ordered, with each line's
 * total, and whose order it is.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class OrderLinesTest {

    @Test
    void anOrderKeepsItsProductsNamesAsOrderedAndAnswersLineTotals() {
        String sku = Products.newProduct("12.35", 10);
        String id = placeOrder("alice", newToken("alice"), Products.orderOf(sku, 3)).then().statusCode(201)
                .body("customer", equalTo("alice"))
                .body("items[0].name", equalTo("Test " + sku))
                .body("items[0].unitPrice", equalTo("12.35"))
                .body("items[0].lineTotal", equalTo("37.05"))
                .body("totalAmount", equalTo("37.05"))
                .extract().path("id");

        as("ops").contentType(ContentType.JSON)
                .body("{\"name\":\"Renamed " + sku + "\",\"description\":\"\",\"price\":\"12.35\",\"currency\":\"CNY\",\"active\":true}")
                .put("/products/{sku}", sku).then().statusCode(200);
        as("alice").get("/orders/{id}", id).then().statusCode(200)
                .body("items[0].name", equalTo("Test " + sku))
                .body("items[0].lineTotal", equalTo("37.05"));
        as("ops").get("/orders/{id}", id).then().body("customer", equalTo("alice"));
    }

    /** A line a release before names wrote (none kept) is shown by its sku. */
    @Test
    void aLineWithoutAKeptNameIsShownByItsSku() {
        String sku = Products.newProduct("5.00", 10);
        String id = placeOrder("alice", newToken("alice"), Products.orderOf(sku, 2)).then().statusCode(201).extract().path("id");
        Orders.execute("UPDATE order_items SET name = NULL WHERE order_id = '" + id + "'");
        as("alice").accept(ContentType.JSON).get("/orders/{id}", id).then().body("items[0].name", equalTo(sku))
                .body("items[0].lineTotal", equalTo("10.00"));
    }
}
