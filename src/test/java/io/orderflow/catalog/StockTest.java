package io.orderflow.catalog;

import static io.orderflow.catalog.TestCatalog.PRICE;
import static io.orderflow.catalog.TestCatalog.levels;
import static io.orderflow.catalog.TestCatalog.newProduct;
import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import io.orderflow.catalog.TestCatalog.Levels;
import io.orderflow.shared.problem.ProblemException;
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

    /** What order creation does once it reserves: marks the order as holding a reservation. */
    private static final String MARK_UNRESERVED = "UPDATE orders SET stock_reserved = false WHERE id = :id";

    @Inject
    Stock stock;

    @Inject
    EntityManager db;

    @Test
    void theProductsOfSomeSkusAreReadInAnyState() {
        String active = newProduct(10);
        String withdrawn = newProduct(4, false);

        Map<String, Product> found = QuarkusTransaction.requiringNew().call(() -> stock.products(List.of(active, withdrawn, "NO-SUCH-SKU")));

        assertThat(found).containsOnlyKeys(active, withdrawn);
        Product product = found.get(active);
        assertThat(product.name).isEqualTo("Jasmine tea");
        assertThat(product.price).isEqualByComparingTo(new BigDecimal(PRICE));
        assertThat(product.currency).isEqualTo("CNY");
        assertThat(product.active).isTrue();
        assertThat(product.onHand).isEqualTo(10);
        assertThat(product.reserved).isZero();
        assertThat(found.get(withdrawn).active).isFalse();
    }

    @Test
    void aReservationIsAllOrNoneAndNamesEveryShortItem() {
        String plenty = newProduct(10);
        String scarce = newProduct(1);
        String withdrawn = newProduct(5, false);

        ProblemException refused = catchThrowableOfType(() -> reserve(
                new StockLine(plenty, 2), new StockLine(scarce, 2), new StockLine(withdrawn, 1)), ProblemException.class);

        assertThat(refused.problem().status()).isEqualTo(409);
        assertThat(refused.problem().code()).isEqualTo("out-of-stock");
        assertThat(refused.problem().detail()).contains(scarce + " (2 requested, 1 available)", withdrawn + " (1 requested, 0 available)");
        assertThat(refused.problem().members().get("items"))
                .asInstanceOf(InstanceOfAssertFactories.LIST)
                .containsExactlyInAnyOrder(new Stock.Shortage(scarce, 2, 1), new Stock.Shortage(withdrawn, 1, 0));
        assertThat(levels(plenty)).isEqualTo(new Levels(10, 0));
        assertThat(levels(scarce)).isEqualTo(new Levels(1, 0));
    }

    @Test
    void linesOfOneSkuAreReservedTogether() {
        String sku = newProduct(5);

        ProblemException refused = catchThrowableOfType(() -> reserve(new StockLine(sku, 3), new StockLine(sku, 3)), ProblemException.class);
        assertThat(refused.problem().members().get("items")).isEqualTo(List.of(new Stock.Shortage(sku, 6, 5)));

        reserve(new StockLine(sku, 2), new StockLine(sku, 3));
        assertThat(levels(sku)).isEqualTo(new Levels(5, 5));
    }

    @Test
    void sixteenConcurrentReservationsOfTenUnitsReserveExactlyTen() {
        String sku = newProduct(10);

        List<Boolean> reservedOne = Parallel.run(16, () -> {
            try {
                reserve(new StockLine(sku, 1));
                return true;
            } catch (ProblemException e) {
                return false;
            }
        });

        assertThat(reservedOne).filteredOn(Boolean::booleanValue).hasSize(10);
        assertThat(levels(sku)).isEqualTo(new Levels(10, 10));
    }

    @Test
    void concurrentOrdersListingTheSameSkusInOppositeOrderDoNotDeadlock() {
        String first = newProduct(100);
        String second = newProduct(100);
        List<Callable<Boolean>> orders = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            List<StockLine> lines = i % 2 == 0 ? List.of(new StockLine(first, 1), new StockLine(second, 1))
                    : List.of(new StockLine(second, 1), new StockLine(first, 1));
            orders.add(() -> {
                reserve(lines.toArray(StockLine[]::new));
                return true;
            });
        }

        assertThat(Parallel.run(orders)).containsOnly(true);
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

    private void reserve(StockLine... lines) {
        inTransaction(() -> stock.reserve(List.of(lines)));
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
