package io.orderflow.catalog;

import static io.orderflow.catalog.TestCatalog.PRICE;
import static io.orderflow.catalog.TestCatalog.levels;
import static io.orderflow.catalog.TestCatalog.newProduct;
import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import org.junit.jupiter.api.Test;

import io.orderflow.catalog.TestCatalog.Levels;
import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.TestServers;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Stock held for orders, in real transactions against the database, and settled when orders are cancelled or shipped. */
@QuarkusTest
@WithTestResource(TestServers.class)
class StockTest {

    private static final String CUSTOMER = "bob";
    /** What order creation does once it reserves: marks the order as holding a reservation. */
    private static final String MARK_UNRESERVED = "UPDATE orders SET stock_reserved = false WHERE id = :id";

    @Inject
    Stock stock;

    @Inject
    EntityManager db;

    // ---------------------------------------------------------------- orders reserve their lines

    @Test
    void aReservationIsAllOrNoneAndNamesEveryShortItem() {
        String plenty = newProduct(10);
        String scarce = newProduct(1);
        String gone = newProduct(1);

        order(new StockLine(plenty, 2), new StockLine(scarce, 2), new StockLine(gone, 3)).then()
                .statusCode(409)
                .body("code", equalTo("out-of-stock"))
                .body("detail", containsString(scarce + " (2 requested, 1 available)"))
                .body("detail", containsString(gone + " (3 requested, 1 available)"))
                .body("items.sku", containsInAnyOrder(scarce, gone));

        assertThat(levels(plenty)).isEqualTo(new Levels(10, 0));
        assertThat(levels(scarce)).isEqualTo(new Levels(1, 0));
    }

    @Test
    void linesOfOneSkuAreReservedTogether() {
        String sku = newProduct(5);

        order(new StockLine(sku, 3), new StockLine(sku, 3)).then()
                .statusCode(409)
                .body("items", hasSize(1))
                .body("items[0].sku", equalTo(sku))
                .body("items[0].requested", equalTo(6))
                .body("items[0].available", equalTo(5));

        order(new StockLine(sku, 2), new StockLine(sku, 3)).then().statusCode(201);
        assertThat(levels(sku)).isEqualTo(new Levels(5, 5));
    }

    /** Each of the 16 sees units left when it reads; the guarded reservation in the order's statement decides. */
    @Test
    void sixteenConcurrentOrdersOfTenUnitsReserveExactlyTen() {
        String sku = newProduct(10);
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            tokens.add(newToken(CUSTOMER));
        }

        List<Response> answers = Parallel.run(tokens.stream().<Callable<Response>>map(token -> () -> order(token, new StockLine(sku, 1))).toList());

        assertThat(answers).extracting(Response::statusCode).containsOnly(201, 409);
        assertThat(answers).filteredOn(answer -> answer.statusCode() == 201).hasSize(10);
        assertThat(answers).filteredOn(answer -> answer.statusCode() == 409).extracting(answer -> answer.path("code")).containsOnly("out-of-stock");
        assertThat(levels(sku)).isEqualTo(new Levels(10, 10));
        assertThat(Orders.value("SELECT count(*) FROM order_items WHERE sku = ?", sku)).isEqualTo("10");
    }

    @Test
    void concurrentOrdersListingTheSameSkusInOppositeOrderDoNotDeadlock() {
        String first = newProduct(100);
        String second = newProduct(100);
        List<Callable<Response>> orders = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            StockLine[] lines = i % 2 == 0 ? new StockLine[] { new StockLine(first, 1), new StockLine(second, 1) }
                    : new StockLine[] { new StockLine(second, 1), new StockLine(first, 1) };
            String token = newToken(CUSTOMER);
            orders.add(() -> order(token, lines));
        }

        assertThat(Parallel.run(orders)).extracting(Response::statusCode).containsOnly(201);
        assertThat(levels(first)).isEqualTo(new Levels(100, 16));
        assertThat(levels(second)).isEqualTo(new Levels(100, 16));
    }

    @Test
    void releaseGivesBackAndShipTakesFromOnHand() {
        String sku = newProduct(10);
        reserve(new StockLine(sku, 4));

        inTransaction(() -> stock.release(List.of(new StockLine(sku, 1))));
        assertThat(levels(sku)).isEqualTo(new Levels(10, 3));

        inTransaction(() -> stock.ship(List.of(new StockLine(sku, 2))));
        assertThat(levels(sku)).isEqualTo(new Levels(8, 1));
    }

    @Test
    void releasingOrShippingMoreThanIsReservedIsABugAndChangesNothing() {
        String other = newProduct(10);
        String sku = newProduct(10);
        reserve(new StockLine(other, 2), new StockLine(sku, 1));

        assertThatThrownBy(() -> inTransaction(() -> stock.release(List.of(new StockLine(other, 1), new StockLine(sku, 2)))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Cannot release 2 of " + sku);
        assertThatThrownBy(() -> inTransaction(() -> stock.ship(List.of(new StockLine(other, 1), new StockLine(sku, 2)))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Cannot ship 2 of " + sku);

        assertThat(levels(other)).isEqualTo(new Levels(10, 2));
        assertThat(levels(sku)).isEqualTo(new Levels(10, 1));
    }

    @Test
    void theDatabaseRefusesNegativeStockWhateverTheCodeDoes() {
        String sku = newProduct(3);
        reserve(new StockLine(sku, 2));

        for (String update : List.of(
                "UPDATE products SET on_hand = -1 WHERE sku = ? RETURNING on_hand",
                "UPDATE products SET on_hand = 1 WHERE sku = ? RETURNING on_hand",
                "UPDATE products SET reserved = -1 WHERE sku = ? RETURNING on_hand",
                "UPDATE products SET reserved = 4 WHERE sku = ? RETURNING on_hand")) {
            assertThatThrownBy(() -> Orders.value(update, sku)).as(update).rootCause().hasMessageContaining("ck_products_stock");
        }
        assertThat(levels(sku)).isEqualTo(new Levels(3, 2));
    }

    // ---------------------------------------------------------------- orders settle their reservations

    @Test
    void whatOrdersHoldReservedIsReadOneLinePerSku() {
        String first = newProduct(10);
        String second = newProduct(10);
        String order = placeOrder("alice", newToken("alice"), """
                {"currency":"CNY","items":[{"sku":"%1$s","quantity":2,"unitPrice":"%3$s"},{"sku":"%2$s","quantity":1,"unitPrice":"%3$s"},
                {"sku":"%1$s","quantity":3,"unitPrice":"%3$s"}]}""".formatted(first, second, PRICE)).then().statusCode(201).extract().path("id");

        String another = placeOrder("bob", newToken("bob"), """
                {"currency":"CNY","items":[{"sku":"%s","quantity":4,"unitPrice":"%s"}]}""".formatted(second, PRICE))
                .then().statusCode(201).extract().path("id");

        List<StockLine> lines = QuarkusTransaction.requiringNew()
                .call(() -> stock.reservedLinesOf(List.of(UUID.fromString(order), UUID.fromString(another))));

        assertThat(lines).containsExactlyInAnyOrder(new StockLine(first, 5), new StockLine(second, 5));
    }

    @Test
    void aCancelledOrderReleasesItsReservationOnceHoweverOftenItIsCancelled() {
        String sku = newProduct(10);
        reserve(new StockLine(sku, 3));
        String order = placedOrder("alice", sku, 2);
        assertThat(levels(sku)).isEqualTo(new Levels(10, 5));

        List<Response> cancels = Parallel.run(List.<Callable<Response>>of(() -> act("alice", order, "cancel"),
                () -> act("ops", order, "cancel"), () -> act("alice", order, "cancel"), () -> act("ops", order, "cancel")));

        assertThat(cancels).extracting(Response::statusCode).containsOnly(200);
        assertThat(levels(sku)).isEqualTo(new Levels(10, 3));
    }

    @Test
    void aShippedOrderTakesItsReservationFromOnHandOnce() {
        String sku = newProduct(10);
        String order = placedOrder("alice", sku, 2);

        act("alice", order, "pay").then().statusCode(200);
        act("ops", order, "ship").then().statusCode(200);
        act("ops", order, "ship").then().statusCode(200).header("Idempotent-Replayed", "true");

        assertThat(levels(sku)).isEqualTo(new Levels(8, 0));
    }

    @Test
    void anOrderThatReservedNothingLeavesStockAlone() {
        String sku = newProduct(10);
        reserve(new StockLine(sku, 3));
        String cancelled = orderFromBeforeTheCatalog("bob", sku, 2);
        String shipped = orderFromBeforeTheCatalog("bob", sku, 2);

        act("bob", cancelled, "cancel").then().statusCode(200);
        act("bob", shipped, "pay").then().statusCode(200);
        act("ops", shipped, "ship").then().statusCode(200);

        assertThat(levels(sku)).isEqualTo(new Levels(10, 3));
    }

    // ---------------------------------------------------------------- helpers

    /** Reserves the lines by placing an order of them. */
    private static void reserve(StockLine... lines) {
        order(lines).then().statusCode(201);
    }

    private static Response order(StockLine... lines) {
        return order(newToken(CUSTOMER), lines);
    }

    /** POST /orders of these lines at the current price, by a customer with a saved address. */
    private static Response order(String token, StockLine... lines) {
        String items = Arrays.stream(lines).map(line -> """
                {"sku":"%s","quantity":%d}""".formatted(line.sku(), line.quantity())).collect(Collectors.joining(","));
        return placeOrder(CUSTOMER, token, "{\"currency\":\"CNY\",\"items\":[" + items + "]}");
    }

    private static void inTransaction(Runnable work) {
        QuarkusTransaction.requiringNew().run(work);
    }

    /** An order placed through the API, which reserves its items; returns its id. */
    private static String placedOrder(String customer, String sku, int quantity) {
        String order = """
                {"currency":"CNY","items":[{"sku":"%s","quantity":%d,"unitPrice":"%s"}]}""".formatted(sku, quantity, PRICE);
        return placeOrder(customer, newToken(customer), order).then().statusCode(201).extract().path("id");
    }

    /** An order as orders were before they reserved stock: it holds no reservation. */
    private String orderFromBeforeTheCatalog(String customer, String sku, int quantity) {
        String order = placedOrder(customer, sku, quantity);
        inTransaction(() -> {
            stock.release(List.of(new StockLine(sku, quantity)));
            db.createNativeQuery(MARK_UNRESERVED).setParameter("id", UUID.fromString(order)).executeUpdate();
        });
        return order;
    }
}
