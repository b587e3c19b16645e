package io.orderflow.order;

import static io.orderflow.support.Api.field;
import static io.orderflow.support.Api.placeOrder;
import static io.orderflow.support.Products.newProduct;
import static io.orderflow.support.Products.orderOf;
import static io.orderflow.support.Products.stock;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import io.orderflow.support.Api;
import io.orderflow.support.Metrics;
import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * A flash sale: 20 units, 200 buyers at once (20 customers), each request retried once with its
 * token as a browser would. Exactly 20 orders, every other buyer told out-of-stock, no 5xx, and
 * stock that agrees with the orders. {@link FlashSaleWithPrecheckTest} holds the sale with the Redis
 * pre-check, which may turn a buyer away at first and serve the retry; the benchmark measures a flash
 * sale's throughput (ops/bench).
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class FlashSaleTest {

    private static final Logger LOG = Logger.getLogger(FlashSaleTest.class);
    static final int CUSTOMERS = 20;
    private static final int BUYERS = 200;
    private static final int UNITS = 20;

    /** One buyer's two tries with one token, and how long the first answer took. */
    private record Purchase(Response first, Response retry, Duration took) {
    }

    @Test
    void twentyUnitsMakeExactlyTwentyOrders() {
        IntStream.rangeClosed(1, CUSTOMERS).forEach(i -> Users.add("buyer" + i, "customer"));
        String sku = newProduct("99.00", UNITS);
        List<String> buyers = IntStream.range(0, BUYERS).mapToObj(i -> "buyer" + (i % CUSTOMERS + 1)).toList();
        List<String> tokens = buyers.stream().map(Api::newToken).toList();
        List<Callable<Purchase>> purchases = new ArrayList<>();
        for (int i = 0; i < BUYERS; i++) {
            String buyer = buyers.get(i);
            String token = tokens.get(i);
            purchases.add(() -> {
                long started = System.nanoTime();
                Response first = placeOrder(buyer, token, orderOf(sku, 1));
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                return new Purchase(first, placeOrder(buyer, token, orderOf(sku, 1)), took);
            });
        }

        long started = System.nanoTime();
        List<Purchase> results = Parallel.run(purchases);
        Duration sale = Duration.ofNanos(System.nanoTime() - started);

        // The retry tells how each buyer ended: a winner's answers its order again, a loser's is refused again.
        long servedOnRetry = 0;
        Map<Integer, Long> outcomes = new HashMap<>();
        for (Purchase purchase : results) {
            assertThat(purchase.first().statusCode()).as(purchase.first().asString()).isIn(201, 409);
            assertThat(purchase.retry().statusCode()).as(purchase.retry().asString()).isIn(201, 409);
            outcomes.merge(purchase.retry().statusCode(), 1L, Long::sum);
            if (purchase.retry().statusCode() == 409) {
                assertThat(purchase.first().statusCode()).isEqualTo(409);
                assertThat(field(purchase.first(), "code")).isEqualTo("out-of-stock");
                assertThat(field(purchase.retry(), "code")).isEqualTo("out-of-stock");
            } else if (purchase.first().statusCode() == 201) {
                assertThat(purchase.retry().header("Idempotent-Replayed")).isEqualTo("true");
                assertThat(field(purchase.retry(), "id")).isEqualTo(field(purchase.first(), "id"));
            } else {
                servedOnRetry++;
            }
        }
        assertThat(outcomes).containsEntry(201, (long) UNITS).containsEntry(409, (long) (BUYERS - UNITS));
        assertThat(Orders.value("SELECT count(*) FROM order_items WHERE sku = ?", sku)).isEqualTo(String.valueOf(UNITS));
        assertThat(stock(sku)).isEqualTo(UNITS + "/" + UNITS);
        CatalogOrderTest.assertStockAgreesWithOrders(sku, UNITS);

        String precheck = Metrics.scrape().asString().lines().filter(line -> line.startsWith("orders_stock_precheck_total"))
                .collect(Collectors.joining("; "));
        List<Long> latencies = results.stream().map(purchase -> purchase.took().toMillis()).sorted().toList();
        LOG.infof("Flash sale: %d buyers, %d units sold in %d ms (%.0f requests/s); first answers p50 %d ms, p99 %d ms, max %d ms;"
                + " %d buyers turned away at first and served on retry; Redis pre-check: %s", BUYERS, UNITS, sale.toMillis(),
                2.0 * BUYERS / (sale.toMillis() / 1000.0), latencies.get(BUYERS / 2), latencies.get(BUYERS * 99 / 100),
                latencies.get(BUYERS - 1), servedOnRetry, precheck.isEmpty() ? "off" : precheck);
    }
}
