package io.orderflow.catalog;

import static io.orderflow.catalog.TestCatalog.adjustments;
import static io.orderflow.catalog.TestCatalog.newProduct;
import static io.orderflow.catalog.TestCatalog.newSku;
import static io.orderflow.catalog.TestCatalog.onHand;
import static io.orderflow.catalog.TestCatalog.productJson;
import static io.orderflow.catalog.TestCatalog.productRows;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;


import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.orderflow.support.Orders;
import io.orderflow.support.Products;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * The catalog API: anyone signed in reads products (customers: active ones only), staff add,
 * change and restock them; every mistake is a problem detail naming what is wrong.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class ProductTest {

    private static final String PROBLEM = "application/problem+json";

    // ---------------------------------------------------------------- reading

    @Test
    void anyoneSignedInReadsAProductWithItsPriceInMinorUnits() {
        Response notebook = as("alice").get("/products/ABC-1");

        notebook.then().statusCode(200)
                .body("sku", equalTo("ABC-1"))
                .body("name", equalTo("Notebook"))
                .body("price", equalTo("12.50"))
                .body("currency", equalTo("CNY"))
                .body("active", equalTo(true));
        assertThat(notebook.<Integer>path("available")).isEqualTo(notebook.<Integer>path("onHand") - notebook.<Integer>path("reserved"));
    }

    @Test
    void withoutCredentialsTheCatalogAsksForThem() {
        given().get("/products").then().statusCode(401).header("WWW-Authenticate", "Basic realm=\"orders\"");
    }

    @Test
    void anUnknownProductIsNotFound() {
        for (String sku : List.of("NO-SUCH-SKU", "not a sku", "caf\u00e9")) {
            as("alice").get("/products/{sku}", sku).then()
                    .statusCode(404)
                    .contentType(PROBLEM)
                    .body("code", equalTo("product-not-found"));
        }
    }

    @Test
    void staffPageThroughEveryProductInSkuOrder() {
        List<String> seen = allSkus("ops", 3);

        String stored = Orders.value("SELECT string_agg(sku, ',' ORDER BY sku) FROM products");
        assertThat(seen).doesNotHaveDuplicates().isEqualTo(List.of(stored.split(",")));
    }

    @Test
    void customersSeeActiveProductsOnlyAndNoInactiveOneByItsSku() {
        String withdrawn = newProduct(5, false);

        as("ops").get("/products/{sku}", withdrawn).then().statusCode(200).body("active", equalTo(false));
        as("alice").get("/products/{sku}", withdrawn).then().statusCode(404).body("code", equalTo("product-not-found"));
        as("alice").get("/products/CAL-WALL-2025").then().statusCode(404);

        List<String> shown = allSkus("alice", 100);
        assertThat(shown).contains("ABC-1", "DECLINE-51").doesNotContain(withdrawn, "CAL-WALL-2025");
        as("alice").get("/products?limit=100").then().body("items.active", everyItem(equalTo(true)));
    }

    @Test
    void badPagingIsRefused() {
        String notASku = Base64.getUrlEncoder().encodeToString("not a sku".getBytes(StandardCharsets.UTF_8));
        for (String query : List.of("limit=0", "limit=101", "limit=ten", "limit=1.5", "after=@@@", "after=" + notASku)) {
            as("alice").get("/products?" + query).then()
                    .statusCode(400)
                    .contentType(PROBLEM)
                    .body("code", equalTo("validation-failed"));
        }
    }

    // ---------------------------------------------------------------- staff: add and change

    @Test
    void staffAddAProduct() {
        String sku = newSku("NEW");

        as("ops").contentType(ContentType.JSON)
                .body("""
                        {"sku":"%s","name":"Oolong tea","description":"Tieguanyin, 250 g","price":68,"currency":"CNY","onHand":40,"active":true}"""
                        .formatted(sku))
                .post("/products").then()
                .statusCode(201)
                .header("Location", endsWith("/products/" + sku))
                .body("sku", equalTo(sku))
                .body("name", equalTo("Oolong tea"))
                .body("description", equalTo("Tieguanyin, 250 g"))
                .body("price", equalTo("68.00"))
                .body("onHand", equalTo(40))
                .body("reserved", equalTo(0))
                .body("available", equalTo(40));

        as("bob").get("/products/{sku}", sku).then().statusCode(200).body("name", equalTo("Oolong tea"));
        assertThat(productRows(sku)).isEqualTo(1);
    }

    @Test
    void aPriceIsExactInItsCurrencysMinorUnits() {
        String yen = newSku("JPY");
        as("ops").contentType(ContentType.JSON).body(productJson(yen, 1, true).replace("\"12.50\",\"currency\":\"CNY\"", "\"1200\",\"currency\":\"JPY\""))
                .post("/products").then().statusCode(201).body("price", equalTo("1200"));
        as("ops").contentType(ContentType.JSON).body(productJson(newSku("JPY"), 1, true).replace("\"CNY\"", "\"JPY\"")).post("/products").then()
                .statusCode(400)
                .body("errors.field", contains("price"))
                .body("errors.message", contains("must have at most 0 decimals in JPY"));
    }

    @Test
    void aSkuIsAddedOnce() {
        String sku = newProduct(5);

        as("ops").contentType(ContentType.JSON).body(productJson(sku, 99, true).replace("Jasmine tea", "Another tea")).post("/products").then()
                .statusCode(409)
                .contentType(PROBLEM)
                .body("code", equalTo("product-exists"));
        as("ops").get("/products/{sku}", sku).then().body("name", equalTo("Jasmine tea")).body("onHand", equalTo(5));
    }

    @Test
    void staffReplaceAProductButNotItsStock() {
        String sku = newProduct(7);

        as("ops").contentType(ContentType.JSON)
                .body("""
                        {"name":"Jasmine tea, spring picking","price":"15","currency":"USD","active":false}""")
                .put("/products/{sku}", sku).then()
                .statusCode(200)
                .body("name", equalTo("Jasmine tea, spring picking"))
                .body("description", equalTo(""))
                .body("price", equalTo("15.00"))
                .body("currency", equalTo("USD"))
                .body("active", equalTo(false))
                .body("onHand", equalTo(7));
        assertThat(Orders.value("SELECT version FROM products WHERE sku = ?", sku)).isEqualTo("1");
    }

    @Test
    void aReplacementRefusesSkuAndOnHandSayingWhereTheyChange() {
        String sku = newProduct(7);

        as("ops").contentType(ContentType.JSON)
                .body("""
                        {"sku":"OTHER-1","name":"Renamed","price":"12.50","currency":"CNY","onHand":1000,"active":true}""")
                .put("/products/{sku}", sku).then()
                .statusCode(400)
                .contentType(PROBLEM)
                .body("code", equalTo("validation-failed"))
                .body("errors.field", contains("onHand", "sku"))
                .body("errors.message", contains("cannot be set here: adjust stock with POST /products/{sku}/stock",
                        "cannot be changed: it is the product's address"));
        as("ops").get("/products/{sku}", sku).then().body("name", equalTo("Jasmine tea")).body("onHand", equalTo(7));
    }

    @Test
    void replacingAnUnknownProductIsNotFound() {
        as("ops").contentType(ContentType.JSON).body(replacement(Map.of()))
                .put("/products/{sku}", newSku("GONE")).then()
                .statusCode(404)
                .body("code", equalTo("product-not-found"));
    }

    @Test
    void customersMayNotChangeTheCatalog() {
        String sku = newProduct(10);
        String unknown = newSku("NOT-ADDED");

        as("alice").contentType(ContentType.JSON).body(productJson(unknown, 1, true)).post("/products").then()
                .statusCode(403).contentType(PROBLEM).body("code", equalTo("forbidden"));
        as("alice").contentType(ContentType.JSON).body(replacement(Map.of())).put("/products/{sku}", sku).then()
                .statusCode(403).body("code", equalTo("forbidden"));
        adjust("bob", sku, 5, "restock").then().statusCode(403).body("code", equalTo("forbidden"));

        assertThat(productRows(unknown)).isZero();
        assertThat(onHand(sku)).isEqualTo(10);
        assertThat(adjustments(sku)).isZero();
    }

    // ---------------------------------------------------------------- staff: stock

    @Test
    void staffAdjustStockAndEachAdjustmentIsRecorded() {
        String sku = newProduct(10);

        adjust("ops", sku, 5, "delivery from the supplier").then()
                .statusCode(200).body("onHand", equalTo(15)).body("available", equalTo(15));
        adjust("ops", sku, -3, "3 damaged in the warehouse").then()
                .statusCode(200).body("onHand", equalTo(12)).body("available", equalTo(12));

        assertThat(onHand(sku)).isEqualTo(12);
        assertThat(Orders.value("""
                SELECT string_agg(delta || ' ' || on_hand_after || ' ' || actor || ' ' || reason, '; ' ORDER BY id)
                FROM stock_adjustments WHERE sku = ?""", sku))
                .isEqualTo("5 15 ops delivery from the supplier; -3 12 ops 3 damaged in the warehouse");
    }

    @Test
    void onHandNeverFallsBelowWhatIsReserved() {
        String sku = newProduct(10);
        placeOrder("bob", newToken("bob"), Products.orderOf(sku, 4)).then().statusCode(201);

        adjust("ops", sku, -7, "stocktake").then()
                .statusCode(409)
                .contentType(PROBLEM)
                .body("code", equalTo("insufficient-stock"))
                .body("onHand", equalTo(10))
                .body("reserved", equalTo(4))
                .body("available", equalTo(6));
        assertThat(onHand(sku)).isEqualTo(10);
        assertThat(adjustments(sku)).isZero();

        adjust("ops", sku, -6, "stocktake").then().statusCode(200).body("onHand", equalTo(4)).body("available", equalTo(0));
    }

    @Test
    void adjustingAnUnknownProductIsNotFound() {
        adjust("ops", newSku("GONE"), 5, "restock").then().statusCode(404).body("code", equalTo("product-not-found"));
    }

    @Test
    void aRetriedAdjustmentWithTheSameIdempotencyKeyIsAppliedOnce() {
        String sku = newProduct(10);
        String body = "{\"delta\":5,\"reason\":\"restock\"}";

        Response first = staffWithKey("restock-" + sku).body(body).post("/products/{sku}/stock", sku);
        Response retry = staffWithKey("restock-" + sku).body(body).post("/products/{sku}/stock", sku);

        first.then().statusCode(200).body("onHand", equalTo(15));
        retry.then().statusCode(200).header("Idempotent-Replayed", "true");
        assertThat(retry.asString()).isEqualTo(first.asString());
        assertThat(onHand(sku)).isEqualTo(15);
        assertThat(adjustments(sku)).isEqualTo(1);
        staffWithKey("restock-" + sku).body("{\"delta\":6,\"reason\":\"restock\"}").post("/products/{sku}/stock", sku).then()
                .statusCode(422).body("code", equalTo("idempotency-key-reused"));
        assertThat(onHand(sku)).isEqualTo(15);
    }

    // ---------------------------------------------------------------- refused input

    static Stream<Arguments> badNewProducts() {
        return Stream.of(
                bad("no sku", "sku", null),
                bad("a sku with a space", "sku", "\"ABC 1\""),
                bad("a sku of 65 characters", "sku", text("S".repeat(65))),
                bad("a sku as a number", "sku", "12"),
                bad("no name", "name", null),
                bad("an empty name", "name", "\"\""),
                bad("a blank name", "name", "\"   \""),
                bad("a name of 201 characters", "name", text("n".repeat(201))),
                bad("a name with a NUL character", "name", "\"a\\u0000b\""),
                bad("a name on two lines", "name", "\"a\\nb\""),
                bad("a name with an unpaired surrogate", "name", "\"a\\uD800b\""),
                bad("a description of 2001 characters", "description", text("d".repeat(2001))),
                bad("a description with a bell character", "description", "\"ding\\u0007\""),
                bad("no price", "price", null),
                bad("a price of 0", "price", "\"0\""),
                bad("a negative price", "price", "-1"),
                bad("a negative price as text", "price", "\"-1\""),
                bad("a price over 1000000", "price", "\"1000000.01\""),
                bad("a price finer than a fen", "price", "\"12.505\""),
                bad("a price finer than a fen as a number", "price", "12.505"),
                bad("a price in exponent notation as text", "price", "\"1e2\""),
                bad("a price as a boolean", "price", "true"),
                bad("a price of 1e400", "price", "1e400"),
                bad("no currency", "currency", null),
                bad("a lower-case currency", "currency", "\"cny\""),
                bad("a currency not offered", "currency", "\"XXX\""),
                bad("no onHand", "onHand", null),
                bad("a negative onHand", "onHand", "-1"),
                bad("onHand over 1000000", "onHand", "1000001"),
                bad("a fractional onHand", "onHand", "1.5"),
                bad("onHand as text", "onHand", "\"10\""),
                bad("no active", "active", null),
                bad("active as text", "active", "\"yes\""),
                bad("an unknown member", "colour", "\"green\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNewProducts")
    void aBadNewProductIsRefusedNamingTheField(String member, String value) {
        String sku = newSku("BAD");
        Map<String, String> product = new LinkedHashMap<>(Map.of("sku", text(sku), "onHand", "10"));
        product.putAll(replacementMembers());

        refused(with(product, member, value)).post("/products").then()
                .statusCode(400)
                .contentType(PROBLEM)
                .body("code", equalTo("validation-failed"))
                .body("errors.field", contains(member));
        assertThat(productRows(sku)).isZero();
    }

    @Test
    void everyWrongFieldIsNamedAtOnce() {
        as("ops").contentType(ContentType.JSON)
                .body("""
                        {"sku":"a b","name":"","price":"0","currency":"XXX","onHand":-1}""")
                .post("/products").then()
                .statusCode(400)
                .body("errors.field", contains("active", "currency", "name", "onHand", "price", "sku"));
    }

    @Test
    void aMissingBodyIsRefused() {
        as("ops").contentType(ContentType.JSON).body("null").post("/products").then()
                .statusCode(400).body("code", equalTo("validation-failed")).body("errors.field", contains("body"));
    }

    @Test
    void aBadReplacementIsRefusedNamingTheField() {
        String sku = newProduct(3);

        as("ops").contentType(ContentType.JSON).body(replacement(Map.of("price", "\"12.555\"", "name", "\"\""))).put("/products/{sku}", sku).then()
                .statusCode(400)
                .body("code", equalTo("validation-failed"))
                .body("errors.field", contains("name", "price"));
        as("ops").get("/products/{sku}", sku).then().body("name", equalTo("Jasmine tea")).body("price", equalTo("12.50"));
    }

    static Stream<Arguments> badAdjustments() {
        return Stream.of(
                bad("no delta", "delta", null),
                bad("a delta of 0", "delta", "0"),
                bad("a delta over 1000000", "delta", "1000001"),
                bad("a delta under -1000000", "delta", "-1000001"),
                bad("a fractional delta", "delta", "1.5"),
                bad("a delta as text", "delta", "\"5\""),
                bad("no reason", "reason", null),
                bad("an empty reason", "reason", "\"\""),
                bad("a reason of 201 characters", "reason", text("r".repeat(201))),
                bad("a reason on two lines", "reason", "\"a\\nb\""),
                bad("an unknown member", "note", "\"x\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badAdjustments")
    void aBadAdjustmentIsRefusedNamingTheField(String member, String value) {
        String sku = newProduct(10);
        Map<String, String> adjustment = new LinkedHashMap<>(Map.of("delta", "5", "reason", "\"restock\""));

        refused(with(adjustment, member, value)).post("/products/{sku}/stock", sku).then()
                .statusCode(400)
                .contentType(PROBLEM)
                .body("code", equalTo("validation-failed"))
                .body("errors.field", contains(member));
        assertThat(onHand(sku)).isEqualTo(10);
        assertThat(adjustments(sku)).isZero();
    }

    // ---------------------------------------------------------------- helpers

    /** Every sku the user is shown, page by page. */
    private static List<String> allSkus(String user, int pageSize) {
        List<String> seen = new ArrayList<>();
        String after = "";
        do {
            Response page = as(user).queryParam("limit", pageSize).queryParam("after", after).get("/products");
            page.then().statusCode(200).body("items.size()", lessThanOrEqualTo(pageSize));
            seen.addAll(page.path("items.sku"));
            after = page.path("next");
        } while (after != null);
        return seen;
    }

    private static Response adjust(String user, String sku, int delta, String reason) {
        return as(user).contentType(ContentType.JSON).body(Map.of("delta", delta, "reason", reason)).post("/products/{sku}/stock", sku);
    }

    private static RequestSpecification staffWithKey(String key) {
        return as("ops").contentType(ContentType.JSON).header("Idempotency-Key", key);
    }

    private static RequestSpecification refused(String body) {
        return as("ops").contentType(ContentType.JSON).body(body);
    }

    private static Map<String, String> replacementMembers() {
        return Map.of("name", "\"Jasmine tea\"", "description", "\"Loose leaf\"", "price", "\"12.50\"", "currency", "\"CNY\"",
                "active", "true");
    }

    /** A PUT body: the members of a replacement with these raw JSON values instead. */
    private static String replacement(Map<String, String> changed) {
        Map<String, String> members = new LinkedHashMap<>(replacementMembers());
        members.putAll(changed);
        return json(members);
    }

    /** The body with the member set to a raw JSON value, or left out when the value is null. */
    private static String with(Map<String, String> members, String member, String value) {
        Map<String, String> changed = new LinkedHashMap<>(members);
        if (value == null) {
            changed.remove(member);
        } else {
            changed.put(member, value);
        }
        return json(changed);
    }

    private static String json(Map<String, String> members) {
        return members.entrySet().stream().map(member -> text(member.getKey()) + ":" + member.getValue())
                .collect(Collectors.joining(",", "{", "}"));
    }

    private static String text(String value) {
        return "\"" + value + "\"";
    }

    /** A case of the table: the member set to a raw JSON value (left out when null), which the answer must name. */
    private static Arguments bad(String description, String member, String value) {
        return Arguments.of(Named.of(description, member), value);
    }
}
