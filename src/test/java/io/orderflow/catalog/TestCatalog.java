package io.orderflow.catalog;

import static io.orderflow.support.Api.as;

import java.util.Locale;
import java.util.UUID;

import io.orderflow.support.Orders;
import io.restassured.http.ContentType;

/** Products of a test, added through the API by staff, and their rows as the database holds them. */
final class TestCatalog {

    /** The price of every product made here, so that orders for them may carry the unit price they were shown. */
    static final String PRICE = "12.50";

    private TestCatalog() {
    }

    /** A sku no other test uses. */
    static String newSku(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 12).toUpperCase(Locale.ROOT);
    }

    static String productJson(String sku, int onHand, boolean active) {
        return """
                {"sku":"%s","name":"Jasmine tea","description":"Loose leaf, 100 g","price":"%s","currency":"CNY","onHand":%d,"active":%b}"""
                .formatted(sku, PRICE, onHand, active);
    }

    /** A new active product with this much on hand; returns its sku. */
    static String newProduct(int onHand) {
        return newProduct(onHand, true);
    }

    static String newProduct(int onHand, boolean active) {
        String sku = newSku("T");
        as("ops").contentType(ContentType.JSON).body(productJson(sku, onHand, active)).post("/products").then().statusCode(201);
        return sku;
    }

    /** A product's stock as the database holds it. */
    record Levels(int onHand, int reserved) {
    }

    static Levels levels(String sku) {
        return new Levels(onHand(sku), reserved(sku));
    }

    static int onHand(String sku) {
        return Integer.parseInt(Orders.value("SELECT on_hand FROM products WHERE sku = ?", sku));
    }

    static int reserved(String sku) {
        return Integer.parseInt(Orders.value("SELECT reserved FROM products WHERE sku = ?", sku));
    }

    static int adjustments(String sku) {
        return Integer.parseInt(Orders.value("SELECT count(*) FROM stock_adjustments WHERE sku = ?", sku));
    }

    static int productRows(String sku) {
        return Integer.parseInt(Orders.value("SELECT count(*) FROM products WHERE sku = ?", sku));
    }
}
