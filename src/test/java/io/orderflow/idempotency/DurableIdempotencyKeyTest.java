package io.orderflow.idempotency;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.newToken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.retention.RetentionJob;
import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.Products;
import io.orderflow.support.RedisConnection;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Idempotency-Keys outlive Redis: every final answer is kept in PostgreSQL for the retention, the
 * answer of a request with an effect in the effect's own transaction, and Redis is refilled from it.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class DurableIdempotencyKeyTest {

    /** A second waiter for a row waits behind the first one's tuple lock, not behind the holder's. */
    private static final String WAITING_BEHIND = """
            WITH first AS (SELECT pid FROM pg_stat_activity WHERE CAST(? AS int) = ANY(pg_blocking_pids(pid)))
            SELECT count(*) FROM pg_stat_activity WHERE pid IN (SELECT pid FROM first) OR pg_blocking_pids(pid) && ARRAY(SELECT pid FROM first)""";

    private static final String TOKEN_PATH = "/orders/token";

    @Inject
    RetentionJob retention;

    @Inject
    IdempotencyStore store;

    @Inject
    IdempotencyRecords records;

    @Test
    void aRetryAfterRedisForgotEverythingReplaysTheFirstOrder() {
        String key = newKey();
        Response first = placeOrder(key, newToken("alice"), ORDER);
        first.then().statusCode(201);

        redisForgetsEverything();
        String freshToken = newToken("alice");
        Response again = placeOrder(key, freshToken, ORDER);

        again.then().statusCode(201).header("Idempotent-Replayed", "true").header("Location", first.header("Location"))
                .header("Content-Type", first.header("Content-Type"));
        assertThat(again.asByteArray()).isEqualTo(first.asByteArray());
        assertThat(Orders.countForToken(freshToken)).as("orders of the fresh token").isZero();
        // Redis is refilled (PostgreSQL answers until it is), and a changed body is still refused.
        placeOrder(key, newToken("alice"), ORDER).then().statusCode(201).header("Idempotent-Replayed", "true");
        placeOrder(key, newToken("alice"), ORDER.replace("\"quantity\":2", "\"quantity\":3")).then().statusCode(422)
                .body("code", equalTo("idempotency-key-reused"));
    }

    @Test
    void aRetryThatArrivesBeforeRedisLearnedTheAnswerIsAnsweredFromPostgresql() {
        // The holder kept its answer in PostgreSQL and answered; its copy for Redis has not arrived.
        String key = newKey();
        KeyClaim holder = store.claim(new KeyScope("alice", "POST", TOKEN_PATH, key), RequestFingerprint.of("POST", TOKEN_PATH, new byte[0]));
        assertThat(holder.outcome()).isEqualTo(KeyClaim.Outcome.CLAIMED);
        String answer = "{\"token\":\"kept before Redis learned it\"}";
        assertThat(records.keep(holder, new StoredAnswer(201, Map.of("Content-Type", "application/json"), answer, false))).isPresent();

        as("alice").header("Idempotency-Key", key).post(TOKEN_PATH).then()
                .statusCode(201).header("Idempotent-Replayed", "true").body("token", equalTo("kept before Redis learned it"));
        // A request that is still running is still answered 409.
        String running = newKey();
        store.claim(new KeyScope("alice", "POST", TOKEN_PATH, running), RequestFingerprint.of("POST", TOKEN_PATH, new byte[0]));
        as("alice").header("Idempotency-Key", running).post(TOKEN_PATH).then()
                .statusCode(409).body("code", equalTo("idempotency-key-in-use"));
    }

    @Test
    void aChangedBodyAfterRedisForgotIsRefused() {
        String key = newKey();
        placeOrder(key, newToken("alice"), ORDER).then().statusCode(201);

        redisForgetsEverything();
        String freshToken = newToken("alice");
        placeOrder(key, freshToken, ORDER.replace("\"quantity\":2", "\"quantity\":3")).then().statusCode(422)
                .body("code", equalTo("idempotency-key-reused"));
        assertThat(Orders.countForToken(freshToken)).isZero();
    }

    @Test
    void aRetryAfterRedisForgotStillReplaysTheOrderWhenItsPriceHasChangedSince() {
        String sku = Products.newProduct("5.00", 10);
        String body = "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":1,\"unitPrice\":\"5.00\"}]}";
        String key = newKey();
        Response first = placeOrder(key, newToken("alice"), body);
        first.then().statusCode(201);
        as("ops").contentType(ContentType.JSON)
                .body("{\"name\":\"Dearer\",\"description\":\"\",\"price\":\"6.00\",\"currency\":\"CNY\",\"active\":true}")
                .put("/products/{sku}", sku).then().statusCode(200);

        redisForgetsEverything();
        // Without the key this body is refused now (409 price-changed): the key answers for the first order.
        placeOrder(key, newToken("alice"), body).then().statusCode(201).header("Idempotent-Replayed", "true")
                .body("id", equalTo(first.path("id")));
        assertThat(Products.stock(sku)).isEqualTo("10/1");
    }

    @Test
    void aStockAdjustmentRetriedAfterRedisForgotIsAppliedOnce() {
        String sku = Products.newProduct("3.00", 10);
        String key = newKey();
        adjust(sku, key, 5).then().statusCode(200).body("onHand", equalTo(15));

        redisForgetsEverything();
        adjust(sku, key, 5).then().statusCode(200).header("Idempotent-Replayed", "true").body("onHand", equalTo(15));

        assertThat(Products.stock(sku)).isEqualTo("15/0");
        assertThat(Orders.value("SELECT count(*) FROM stock_adjustments WHERE sku = ?", sku)).isEqualTo("1");
    }

    @Test
    void aProductCreationRetriedAfterRedisForgotIsAnsweredAsCreated() {
        String sku = "D-" + UUID.randomUUID().toString().substring(0, 8).toUpperCase(Locale.ROOT);
        String key = newKey();
        Response first = createProduct(sku, key);
        first.then().statusCode(201);

        redisForgetsEverything();
        Response again = createProduct(sku, key);

        again.then().statusCode(201).header("Idempotent-Replayed", "true").header("Location", "/products/" + sku);
        assertThat(again.asByteArray()).isEqualTo(first.asByteArray());
    }

    @Test
    void aTransitionKeepsItsFirstAnswerAfterRedisForgot() {
        String id = newOrder("alice");
        String key = newKey();
        Response paid = as("alice").header("Idempotency-Key", key).post("/orders/{id}/pay", id);
        paid.then().statusCode(200).body("status", equalTo("paid"));
        as("alice").header("Idempotency-Key", newKey()).post("/orders/{id}/cancel", id).then().statusCode(200);

        redisForgetsEverything();
        Response again = as("alice").header("Idempotency-Key", key).post("/orders/{id}/pay", id);

        // The answer the key was given, not the order as it is now.
        again.then().statusCode(200).header("Idempotent-Replayed", "true").body("status", equalTo("paid"));
        assertThat(again.asByteArray()).isEqualTo(paid.asByteArray());
    }

    @Test
    void concurrentRetriesAfterRedisForgotMakeOneOrder() {
        String key = newKey();
        placeOrder(key, newToken("alice"), ORDER).then().statusCode(201);
        redisForgetsEverything();
        List<String> tokens = List.of(newToken("alice"), newToken("alice"), newToken("alice"), newToken("alice"));

        List<Response> answers = Parallel.run(tokens.stream().<Callable<Response>>map(token -> () -> placeOrder(key, token, ORDER))
                .toList());

        assertThat(answers).extracting(Response::statusCode).allSatisfy(status -> assertThat(status).isIn(201, 409));
        assertThat(answers).extracting(Response::statusCode).contains(201);
        assertThat(tokens).allSatisfy(token -> assertThat(Orders.countForToken(token)).isZero());
    }

    /**
     * Redis forgets the key while its first request is still inside its transaction, and a retry runs
     * beside it: both wait on the product's row, and whichever commits second meets the kept key,
     * rolls its order back and answers with the first one's.
     */
    @Test
    void aRetryRunningBesideTheFirstRequestAfterRedisForgotMakesNoSecondOrder() throws Exception {
        String sku = Products.newProduct("2.00", 100);
        String body = Products.orderOf(sku, 1);
        String key = newKey();
        String firstToken = newToken("alice");
        List<Response> answers;
        String retryToken;
        try (Connection lock = TestServers.connect()) {
            lock.setAutoCommit(false);
            try (PreparedStatement rowLock = lock.prepareStatement("SELECT 1 FROM products WHERE sku = ? FOR UPDATE")) {
                rowLock.setString(1, sku);
                rowLock.execute();
            }
            CompletableFuture<Response> first = CompletableFuture.supplyAsync(() -> placeOrder(key, firstToken, body));
            awaitBlockedOn(lock, 1);
            redisForgetsEverything();
            retryToken = newToken("alice");
            CompletableFuture<Response> retry = CompletableFuture.supplyAsync(() -> placeOrder(key, retryToken, body));
            awaitBlockedOn(lock, 2);
            lock.commit();
            answers = List.of(first.get(30, TimeUnit.SECONDS), retry.get(30, TimeUnit.SECONDS));
        }

        assertThat(answers).extracting(Response::statusCode).containsExactly(201, 201);
        assertThat(answers.get(0).<String>path("id")).isEqualTo(answers.get(1).<String>path("id"));
        assertThat(answers).extracting(answer -> answer.header("Idempotent-Replayed")).containsOnlyOnce("true");
        assertThat(Orders.countForToken(firstToken) + Orders.countForToken(retryToken)).isEqualTo(1);
        assertThat(Products.stock(sku)).isEqualTo("100/1");
    }

    @Test
    void keysPastTheirRetentionArePurgedAndYoungerOnesStay() {
        String old = newKey();
        String young = newKey();
        placeOrder(old, newToken("alice"), ORDER).then().statusCode(201);
        placeOrder(young, newToken("alice"), ORDER).then().statusCode(201);
        Orders.value("UPDATE idempotency_keys SET kept_until = now() - interval '1 second' WHERE idempotency_key = ? RETURNING 1", old);

        assertThat(retention.run().purged("idempotency_keys")).isGreaterThanOrEqualTo(1);

        assertThat(Orders.value("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = ?", old)).isEqualTo("0");
        assertThat(Orders.value("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = ?", young)).isEqualTo("1");
    }

    /** Waits until this many sessions wait for the locks {@code lock} holds, directly or queued behind a session that does. */
    private static void awaitBlockedOn(Connection lock, int sessions) throws SQLException {
        int pid;
        try (ResultSet row = lock.createStatement().executeQuery("SELECT pg_backend_pid()")) {
            row.next();
            pid = row.getInt(1);
        }
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> Integer.parseInt(Orders.value(WAITING_BEHIND, String.valueOf(pid))) == sessions);
    }

    private static void redisForgetsEverything() {
        try (RedisConnection redis = new RedisConnection(TestServers.REDIS_HOST, TestServers.REDIS_PORT)) {
            redis.deleteByPrefix(TestServers.keyPrefix());
        }
    }

    private static Response placeOrder(String key, String token, String body) {
        return as("alice").header("Idempotency-Key", key).header("Order-Token", token).contentType(ContentType.JSON).body(body)
                .post("/orders");
    }

    private static Response adjust(String sku, String key, int delta) {
        return as("ops").header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body("{\"delta\":" + delta + ",\"reason\":\"restock\"}").post("/products/{sku}/stock", sku);
    }

    private static Response createProduct(String sku, String key) {
        return as("ops").header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body("{\"sku\":\"" + sku + "\",\"name\":\"Durable " + sku + "\",\"description\":\"\",\"price\":\"4.00\",\"currency\":\"CNY\","
                        + "\"onHand\":3,\"active\":true}")
                .post("/products");
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }
}
