package io.orderflow.support;

import static io.orderflow.support.Api.as;

import java.util.Locale;
import java.util.UUID;

import io.restassured.http.ContentType;

/** Catalog products made for a test by staff, with a sku of their own, and their stock as the database has it. */
public final class Products {

    private Products() {
    }

    /** A new active product in CNY; returns its sku. */
    public static String newProduct(String price, int onHand) {
        String sku = "T-" + UUID.randomUUID().toString().substring(0, 8).toUpperCase(Locale.ROOT);
        as("ops").contentType(ContentType.JSON)
                .body("{\"sku\":\"" + sku + "\",\"name\":\"Test " + sku + "\",\"description\":\"\",\"price\":\"" + price
                        + "\",\"currency\":\"CNY\",\"onHand\":" + onHand + ",\"active\":true}")
                .post("/products").then().log().ifValidationFails().statusCode(201);
        return sku;
    }

    /** {@code onHand/reserved} of a product. */
    public static String stock(String sku) {
        return Orders.value("SELECT on_hand || '/' || reserved FROM products WHERE sku = ?", sku);
    }

    /** An order body for one item of a product, without a stated price. */
    public static String orderOf(String sku, int quantity) {
        return "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + "}]}";
    }
}
