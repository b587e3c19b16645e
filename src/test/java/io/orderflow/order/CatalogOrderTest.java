package io.orderflow.order;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static io.orderflow.support.Products.newProduct;
import static io.orderflow.support.Products.orderOf;
import static io.orderflow.support.Products.stock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Orders are priced from the catalog and reserve their stock exactly once; cancel releases it once, ship takes it. */
@QuarkusTest
@WithTestResource(TestServers.class)
class CatalogOrderTest {

    @Test
    void aCustomerPaysTheCatalogPrice() {
        String sku = newProduct("19.90", 10);
        placeOrder("alice", newToken("alice"), orderOf(sku, 3)).then().statusCode(201)
                .body("items[0].unitPrice", equalTo("19.90")).body("totalAmount", equalTo("59.70"));
        assertThat(stock(sku)).isEqualTo("10/3");
    }

    @Test
    void aMadeUpPriceIsAnsweredWithTheCurrentPriceAndTheTokenStaysUsable() {
        String sku = newProduct("19.90", 10);
        String token = newToken("alice");

        placeOrder("alice", token, "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":1,\"unitPrice\":\"0.01\"}]}")
                .then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("price-changed"))
                .body("items.sku", contains(sku)).body("items.unitPrice", contains("19.90"));
        assertThat(Orders.countForToken(token)).isZero();
        assertThat(stock(sku)).isEqualTo("10/0");

        placeOrder("alice", token, "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":1,\"unitPrice\":\"19.9\"}]}")
                .then().statusCode(201).body("items[0].unitPrice", equalTo("19.90"));
    }

    @Test
    void aPriceChangedAnswerAlsoListsTheLinesShortOfStock() {
        String repriced = newProduct("19.90", 10);
        String scarce = newProduct("3.00", 2);
        String token = newToken("alice");

        placeOrder("alice", token, "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"" + repriced + "\",\"quantity\":1,\"unitPrice\":\"9.99\"},"
                + "{\"sku\":\"" + scarce + "\",\"quantity\":5}]}")
                .then().statusCode(409)
                .body("code", equalTo("price-changed"))
                .body("items.sku", contains(repriced))
                .body("shortages.sku", contains(scarce)).body("shortages.requested", contains(5)).body("shortages.available", contains(2));
        assertThat(stock(scarce)).isEqualTo("2/0");
        assertThat(Orders.countForToken(token)).isZero();
    }

    @Test
    void staffMayPriceABackOfficeOrder() {
        String sku = newProduct("19.90", 10);
        placeOrder("ops", newToken("ops"), "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":2,\"unitPrice\":\"5.00\"}]}")
                .then().statusCode(201).body("items[0].unitPrice", equalTo("5.00")).body("totalAmount", equalTo("10.00"));
        assertThat(stock(sku)).isEqualTo("10/2");
    }

    @Test
    void anUnknownOrForeignCurrencySkuIsNamed() {
        String token = newToken("alice");
        placeOrder("alice", token, "{\"currency\":\"USD\",\"items\":[{\"sku\":\"ABC-1\",\"quantity\":1},{\"sku\":\"NO-SUCH-SKU\",\"quantity\":1}]}")
                .then().statusCode(400).body("code", equalTo("validation-failed"))
                .body("errors.field", contains("items[0].sku", "items[1].sku"));
        placeOrder("alice", token, orderOf("ABC-1", 1)).then().statusCode(201);
    }

    @Test
    void anOrderWithOneItemShortReservesNothing() {
        String plenty = newProduct("3.00", 100);
        String scarce = newProduct("4.00", 1);
        String token = newToken("alice");

        placeOrder("alice", token, "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"" + plenty + "\",\"quantity\":5},{\"sku\":\"" + scarce
                + "\",\"quantity\":2}]}")
                .then().statusCode(409).body("code", equalTo("out-of-stock"))
                .body("items.sku", contains(scarce)).body("items.requested", contains(2)).body("items.available", contains(1));
        assertThat(stock(plenty)).isEqualTo("100/0");
        assertThat(stock(scarce)).isEqualTo("1/0");
        assertThat(Orders.countForToken(token)).isZero();

        placeOrder("alice", token, "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"" + plenty + "\",\"quantity\":5},{\"sku\":\"" + scarce
                + "\",\"quantity\":1}]}").then().statusCode(201);
        assertThat(stock(plenty)).isEqualTo("100/5");
        assertThat(stock(scarce)).isEqualTo("1/1");
    }

    @Test
    void aReplayReservesNothing() {
        String sku = newProduct("2.00", 10);
        String token = newToken("alice");
        placeOrder("alice", token, orderOf(sku, 4)).then().statusCode(201);
        placeOrder("alice", token, orderOf(sku, 4)).then().statusCode(201).header("Idempotent-Replayed", "true");
        assertThat(stock(sku)).isEqualTo("10/4");
    }

    @Test
    void sixteenConcurrentCancelsReleaseTheStockOnce() {
        String sku = newProduct("2.00", 10);
        String id = placeOrder("alice", newToken("alice"), orderOf(sku, 4)).then().statusCode(201).extract().path("id");

        List<Response> answers = Parallel.run(16, () -> act("alice", id, "cancel"));

        assertThat(answers).extracting(Response::statusCode).containsOnly(200);
        assertThat(stock(sku)).isEqualTo("10/0");
    }

    @Test
    void cancelRacingShipLeavesTheStockConsistentEitherWay() {
        String sku = newProduct("2.00", 1000);
        List<String> ids = new ArrayList<>();
        for (int round = 0; round < 10; round++) {
            String id = placeOrder("alice", newToken("alice"), orderOf(sku, 3)).then().statusCode(201).extract().path("id");
            act("alice", id, "pay").then().statusCode(200);
            Parallel.run(List.<Callable<Response>>of(() -> act("ops", id, "ship"), () -> act("alice", id, "cancel")));
            ids.add(id);
        }
        assertStockAgreesWithOrders(sku, 1000);
        long shipped = ids.stream().filter(id -> "shipped".equals(as("alice").get("/orders/{id}", id).path("status"))).count();
        assertThat(stock(sku)).isEqualTo((1000 - 3 * shipped) + "/0");
    }

    @Test
    void shippingTakesTheReservationFromStockOnHand() {
        String sku = newProduct("2.00", 10);
        String id = placeOrder("alice", newToken("alice"), orderOf(sku, 4)).then().statusCode(201).extract().path("id");
        act("alice", id, "pay").then().statusCode(200);
        act("ops", id, "ship").then().statusCode(200);
        act("ops", id, "ship").then().statusCode(200).header("Idempotent-Replayed", "true");
        assertThat(stock(sku)).isEqualTo("6/0");
        act("ops", id, "cancel").then().statusCode(409);
        assertThat(stock(sku)).isEqualTo("6/0");
    }

    /** Reserved is what the open orders hold; on hand is what was there less what shipped. */
    static void assertStockAgreesWithOrders(String sku, int initial) {
        String held = Orders.value("""
                SELECT coalesce(sum(i.quantity), 0) FROM order_items i JOIN orders o ON o.id = i.order_id
                WHERE i.sku = ? AND o.stock_reserved AND o.status IN ('created', 'paid')""", sku);
        String shipped = Orders.value("""
                SELECT coalesce(sum(i.quantity), 0) FROM order_items i JOIN orders o ON o.id = i.order_id
                WHERE i.sku = ? AND o.stock_reserved AND o.status IN ('shipped', 'delivered')""", sku);
        assertThat(stock(sku)).isEqualTo((initial - Integer.parseInt(shipped)) + "/" + held);
    }
}
