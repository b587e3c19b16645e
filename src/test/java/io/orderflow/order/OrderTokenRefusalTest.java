package io.orderflow.order;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.orderflow.retention.RetentionJob;
import io.orderflow.shared.Hashing;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.token.OrderTokens;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * A 410 order-token-invalid is final: the token's refusal and its order compete for one key in
 * PostgreSQL. Requests are held at a point of their choosing by a lock this test's own transaction
 * takes, and let go by ending that transaction.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class OrderTokenRefusalTest {

    /** How many backends wait for the given backend's transaction. */
    private static final String WAITING_FOR = "SELECT count(*) FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))";
    /** How many backends wait for a backend that waits for the given backend's transaction. */
    private static final String WAITING_BEHIND = """
            SELECT count(*) FROM pg_stat_activity behind, pg_stat_activity waiting
            WHERE ? = ANY(pg_blocking_pids(waiting.pid)) AND waiting.pid = ANY(pg_blocking_pids(behind.pid))""";
    private static final String RESERVED = "SELECT reserved FROM products WHERE sku = 'ABC-1'";
    private static final String BACKDATE_REFUSAL = "UPDATE order_tokens SET refused_at = refused_at - CAST(? AS interval) WHERE token_hash = ?";

    @Inject
    RedisDataSource redis;

    @Inject
    OrderTokens tokens;

    @Inject
    RetentionJob retention;

    private final ExecutorService clients = Executors.newCachedThreadPool();

    @AfterEach
    void stopClients() {
        clients.shutdownNow();
    }

    /** The model's trace (ops/proof/MODEL.md, finding 2), with R1 slow in PostgreSQL and Redis forgetting its claim. */
    @Test
    void aHolderThatRedisForgotMakesNoOrderOnceItsTokenWasRefused() throws Exception {
        String token = newToken("alice");
        String reservedBefore = Orders.value(RESERVED);
        Future<Response> first;
        try (Connection lock = TestServers.connect()) {
            // R1 claims the token, then its insert waits here before it writes anything.
            first = holdFirstRequest(lock, "LOCK TABLE order_items IN EXCLUSIVE MODE", token);

            placeOrder("alice", token, ORDER).then()
                    .statusCode(410)
                    .body("code", equalTo("order-token-invalid"));
            assertThat(Orders.tokenRows(token)).containsExactly("alice: refused");
            lock.rollback();
        }

        first.get(30, TimeUnit.SECONDS).then()
                .statusCode(410)
                .body("code", equalTo("order-token-invalid"));
        placeOrder("alice", token, ORDER).then().statusCode(410);
        assertThat(Orders.countForToken(token)).isZero();
        assertThat(Orders.tokenRows(token)).containsExactly("alice: refused");
        assertThat(Orders.value(RESERVED)).as("stock reserved").isEqualTo(reservedBefore);
    }

    /** The other order of the race: the refusal waits for the order being stored, finds it and replays it. */
    @Test
    void aRefusalThatMeetsAnOrderBeingStoredWaitsForItAndReplaysIt() throws Exception {
        String token = newToken("alice");
        Future<Response> first;
        Future<Response> second;
        try (Connection lock = TestServers.connect()) {
            // R1 inserts its order, then waits here to reserve the product's stock, uncommitted.
            first = holdFirstRequest(lock, "SELECT 1 FROM products WHERE sku = 'ABC-1' FOR UPDATE", token);

            // R2 finds no committed order, and its refusal waits for R1's token row.
            second = clients.submit(() -> placeOrder("alice", token, ORDER));
            awaitWaiting(WAITING_BEHIND, lock);
            lock.rollback();
        }

        Response created = first.get(30, TimeUnit.SECONDS);
        created.then().statusCode(201).header("Idempotent-Replayed", (String) null);
        second.get(30, TimeUnit.SECONDS).then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .header("Location", created.header("Location"))
                .body("id", equalTo(created.path("id")));
        assertThat(Orders.countForToken(token)).isEqualTo(1);
        assertThat(Orders.tokenRows(token)).containsExactly("alice: order " + created.path("id"));
    }

    @Test
    void aTokenRefusedWhileRedisHadForgottenItStaysRefusedWhenRedisHasItAgain() {
        String token = newToken("alice");
        String key = tokenKey("alice", token);
        Map<String, String> issued = redis.hash(String.class).hgetall(key);
        long ttl = redis.key().pttl(key);

        redis.key().del(key);
        placeOrder("alice", token, ORDER).then().statusCode(410).body("code", equalTo("order-token-invalid"));

        // A failover to a replica that still has the token as issued: the claim succeeds, PostgreSQL refuses.
        redis.hash(String.class).hset(key, issued);
        redis.key().pexpire(key, ttl);
        placeOrder("alice", token, ORDER).then().statusCode(410).body("code", equalTo("order-token-invalid"));

        assertThat(Orders.countForToken(token)).isZero();
        assertThat(Orders.tokenRows(token)).containsExactly("alice: refused");
        assertThat(redis.hash(String.class).hget(key, "state")).as("the claim given back").isEqualTo("issued");
    }

    @Test
    void anotherCustomersRefusalOfATokenDoesNotStopItsOwnersOrder() {
        String alicesToken = newToken("alice");

        placeOrder("bob", alicesToken, ORDER).then().statusCode(410).body("code", equalTo("order-token-invalid"));
        assertThat(Orders.tokenRows(alicesToken)).containsExactly("bob: refused");

        Response created = placeOrder("alice", alicesToken, ORDER);
        created.then().statusCode(201).header("Idempotent-Replayed", (String) null);
        placeOrder("bob", alicesToken, ORDER).then().statusCode(410).body("code", equalTo("order-token-invalid"));

        assertThat(Orders.countForToken(alicesToken)).isEqualTo(1);
        assertThat(Orders.tokenRows(alicesToken)).containsExactly("alice: order " + created.path("id"), "bob: refused");
    }

    @Test
    void refusalsAreForgottenPastTheirRetentionAndOrdersKeepTheirRows() throws Exception {
        String stale = "never-issued-" + UUID.randomUUID();
        String recent = "never-issued-" + UUID.randomUUID();
        placeOrder("alice", stale, ORDER).then().statusCode(410);
        placeOrder("alice", recent, ORDER).then().statusCode(410);
        String used = newToken("alice");
        placeOrder("alice", used, ORDER).then().statusCode(201);
        backdateRefusal(stale, "25 hours");
        backdateRefusal(recent, "23 hours");

        assertThat(retention.run().ran()).isTrue();

        assertThat(Orders.tokenRows(stale)).isEmpty();
        assertThat(Orders.tokenRows(recent)).containsExactly("alice: refused");
        assertThat(Orders.tokenRows(used)).hasSize(1).allSatisfy(row -> assertThat(row).startsWith("alice: order "));
    }

    /**
     * Sends alice's request R1 with {@code token} once {@code lock}'s transaction holds what R1 will wait
     * for, waits until R1 does, then makes Redis forget R1's claim.
     */
    private Future<Response> holdFirstRequest(Connection lock, String lockStatement, String token) throws SQLException {
        lock.setAutoCommit(false);
        try (Statement statement = lock.createStatement()) {
            statement.execute(lockStatement);
        }
        Future<Response> first = clients.submit(() -> placeOrder("alice", token, ORDER));
        awaitWaiting(WAITING_FOR, lock);
        redis.key().del(tokenKey("alice", token));
        return first;
    }

    private String tokenKey(String customer, String token) {
        return tokens.tokenKey(customer, OrderTokens.hash(token));
    }

    /** Waits until a request is blocked, as {@code query} sees it, by the lock held on {@code lock}. */
    private static void awaitWaiting(String query, Connection lock) throws SQLException {
        int holder;
        try (Statement statement = lock.createStatement(); ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
            pid.next();
            holder = pid.getInt(1);
        }
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).until(() -> {
            try (Connection watcher = TestServers.connect(); PreparedStatement waiting = watcher.prepareStatement(query)) {
                waiting.setInt(1, holder);
                try (ResultSet count = waiting.executeQuery()) {
                    count.next();
                    return count.getInt(1) > 0;
                }
            }
        });
    }

    private static void backdateRefusal(String token, String age) throws SQLException {
        try (Connection db = TestServers.connect(); PreparedStatement backdate = db.prepareStatement(BACKDATE_REFUSAL)) {
            backdate.setString(1, age);
            backdate.setString(2, Hashing.sha256Hex(token));
            assertThat(backdate.executeUpdate()).isEqualTo(1);
        }
    }
}
