package io.orderflow.order;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.orderflow.shared.Hashing;
import io.orderflow.shared.redis.RedisKeys;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.token.OrderTokens;
import io.orderflow.token.TokenClaim;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** What happens to a token when the database fails, when Redis forgets, or when a holder hangs. */
@QuarkusTest
@WithTestResource(TestServers.class)
class OrderTokenFailureTest {

    @Inject
    RedisDataSource redis;

    @Inject
    RedisKeys keys;

    @Inject
    OrderTokens tokens;

    @AfterEach
    void databaseWorksAgain() {
        Orders.execute("DROP TRIGGER IF EXISTS simulated_outage ON orders");
    }

    @Test
    void aTokenWhoseRequestFailedInTheDatabaseCanBeUsedAgain() {
        String token = newToken("alice");
        Orders.execute("""
                CREATE OR REPLACE FUNCTION simulated_outage() RETURNS trigger LANGUAGE plpgsql AS
                $$ BEGIN RAISE EXCEPTION 'simulated outage' USING ERRCODE = '57P01'; END $$""");
        Orders.execute("CREATE TRIGGER simulated_outage BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION simulated_outage()");

        placeOrder("alice", token, ORDER).then()
                .statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", "1")
                .body("code", equalTo("service-unavailable"))
                .body(not(containsString("simulated outage")))
                .body(not(containsString("Exception")));
        assertThat(Orders.countForToken(token)).isZero();

        databaseWorksAgain();
        Response created = placeOrder("alice", token, ORDER);
        created.then().statusCode(201).header("Idempotent-Replayed", (String) null);
        placeOrder("alice", token, ORDER).then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .body("id", equalTo(created.path("id")));
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    @Test
    void whenRedisForgetsThatATokenWasUsedPostgresqlStillAllowsOneOrder() {
        String token = newToken("alice");
        Map<String, String> unconsumed = redis.hash(String.class).hgetall(tokenKey(token));
        long ttl = redis.key().pttl(tokenKey(token));
        assertThat(unconsumed).containsEntry("state", "issued");

        Response created = placeOrder("alice", token, ORDER);
        created.then().statusCode(201);
        assertThat(redis.hash(String.class).hget(tokenKey(token), "state")).isEqualTo("consumed");

        // A failover to a replica that missed the last write: the token looks unused again.
        redis.key().del(tokenKey(token));
        redis.hash(String.class).hset(tokenKey(token), unconsumed);
        redis.key().pexpire(tokenKey(token), ttl);

        placeOrder("alice", token, ORDER).then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .header("Location", created.header("Location"));
        placeOrder("alice", token, ORDER.replace("ABC-1", "ABC-2")).then()
                .statusCode(422)
                .body("code", equalTo("order-token-reused"));
        assertThat(Orders.countForToken(token)).isEqualTo(1);
        assertThat(redis.hash(String.class).hget(tokenKey(token), "state")).as("Redis learnt again").isEqualTo("consumed");
    }

    @Test
    void whenRedisLosesATokenRecordEntirelyItsOrderIsStillReplayed() {
        String token = newToken("bob");
        Response created = placeOrder("bob", token, ORDER);
        created.then().statusCode(201);
        redis.key().del(tokenKey("bob", token));

        placeOrder("bob", token, ORDER).then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .body("id", equalTo(created.path("id")));
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    @Test
    void whileAnotherRequestHoldsTheTokenTheAnswerIsInUseWithRetryAfter() {
        String token = newToken("alice");
        // A request that took the token and has not finished (or crashed): its lease is 15 s.
        assertThat(tokens.claim("alice", token, "another request", Optional.empty()).outcome()).isEqualTo(TokenClaim.Outcome.CLAIMED);

        placeOrder("alice", token, ORDER).then()
                .statusCode(409)
                .contentType("application/problem+json")
                .header("Retry-After", "1")
                .body("code", equalTo("order-token-in-use"));
        assertThat(Orders.countForToken(token)).isZero();
    }

    private String tokenKey(String token) {
        return tokenKey("alice", token);
    }

    private String tokenKey(String customer, String token) {
        return keys.ofPrincipal(customer, "token:" + Hashing.sha256Hex(token));
    }
}
