package io.orderflow.shared.speed;

import static io.orderflow.support.Api.as;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Api;
import io.orderflow.support.CountedServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * The round trips each request makes to PostgreSQL and to Redis, counted by proxies between the service and the
 * servers while nothing else runs ({@link CountedServers}). A trip is what the service sends before the server answers:
 * BEGIN goes out with the first statement, COMMIT is a trip of its own. Each budget is a ceiling; a request over it
 * fails with the statements of every trip it made.
 */
@QuarkusTest
@WithTestResource(CountedServers.class)
class RoundTripBudgetTest {

    /** Requests made before counting, so that every pooled connection has prepared its statements and read its types. */
    private static final int WARM_UP = 20;
    private static final int COUNTED = 10;

    @Test
    void anOrderTokenIsOneTripToRedisAndNoneToPostgres() {
        within("POST /orders/token", 0, 1, () -> () -> Api.newToken("alice"));
    }

    /** BEGIN with everything the order reads; everything it writes (order, items, event, token, reservation); COMMIT. */
    @Test
    void anOrderIsThreeTripsToPostgresAndTwoToRedis() {
        within("POST /orders", 3, 2, () -> {
            String token = Api.newToken("alice");
            return () -> Api.placeOrder("alice", token, Api.ORDER).then().statusCode(201);
        });
    }

    /** An address the customer had not saved is kept as theirs in the order's own statement. */
    @Test
    void anOrderToANewAddressIsThreeTripsToo() {
        within("POST /orders to a new address", 3, 2, () -> {
            String token = Api.newToken("bob");
            String order = """
                    {"currency":"CNY","items":[{"sku":"ABC-1","quantity":1}],
                     "shippingAddress":{"name":"Bob","lines":["%s Nanjing Road"],"city":"Shanghai","country":"CN"}}""".formatted(UUID.randomUUID());
            return () -> Api.placeOrder("bob", token, order).then().statusCode(201);
        });
    }

    /** The key's answer is one more write. */
    @Test
    void anOrderWithAnIdempotencyKeyIsFourTrips() {
        within("POST /orders with an Idempotency-Key", 4, 2, () -> {
            String token = Api.newToken("alice");
            return () -> as("alice").header("Order-Token", token).header("Idempotency-Key", UUID.randomUUID().toString())
                    .contentType(ContentType.JSON).body(Api.ORDER).post("/orders").then().statusCode(201);
        });
    }

    /**
     * The payment's claim, then, after the provider's answer, one transaction for the charge, the guarded transition
     * with its history and event, and the key's answer. The provider answers from WireMock.
     */
    @Test
    void aPayIsAtMostEightTripsToPostgres() {
        within("POST /orders/{id}/pay", 8, 1, () -> {
            String id = Api.newOrder("alice");
            return () -> as("alice").header("Idempotency-Key", "pay-" + id).contentType(ContentType.JSON)
                    .body("{\"paymentMethod\":\"pm_card_visa\"}").post("/orders/{id}/pay", id).then().statusCode(200);
        });
    }

    @Test
    void aSignedInReadOfAnOrderIsOneTrip() {
        String id = Api.newOrder("alice");
        within("GET /orders/{id}", 1, 0, () -> () -> as("alice").get("/orders/{id}", id).then().statusCode(200));
    }

    /**
     * Makes the request {@value #WARM_UP} times, then counts it {@value #COUNTED} times; {@code prepare} makes what one
     * request needs first (a token), uncounted, and returns the request. pgjdbc flushes its pipeline with a Sync of its
     * own once the replies it expects could fill its buffer (about 64 kB), so now and then a request pays one trip more:
     * the budget holds for the median request, and no request may go more than that one trip over.
     */
    private static void within(String request, int postgres, int redis, Supplier<Runnable> prepare) {
        for (int i = 0; i < WARM_UP; i++) {
            prepare.get().run();
        }
        List<Integer> toPostgresCounts = new ArrayList<>();
        List<String> made = new ArrayList<>();
        List<String> over = new ArrayList<>();
        for (int i = 0; i < COUNTED; i++) {
            Runnable work = prepare.get();
            List<String> toRedis = new ArrayList<>();
            List<String> toPostgres = CountedServers.postgres().during(() -> toRedis.addAll(CountedServers.redis().during(work)));
            String trips = request + ": " + toPostgres.size() + " trips to PostgreSQL " + toPostgres + ", " + toRedis.size() + " to Redis " + toRedis;
            made.add(trips);
            toPostgresCounts.add(toPostgres.size());
            if (toPostgres.size() > postgres + 1 || toRedis.size() > redis) {
                over.add(trips);
            }
        }
        assertThat(over).as("requests over %d trips to PostgreSQL by more than a flush, or over %d to Redis", postgres, redis).isEmpty();
        assertThat(toPostgresCounts.stream().sorted().toList().get(COUNTED / 2)).as("the median request's trips to PostgreSQL: %s", made)
                .isLessThanOrEqualTo(postgres);
    }
}
