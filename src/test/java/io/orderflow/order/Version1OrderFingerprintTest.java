package io.orderflow.order;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.ORDER_REWRITTEN;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.token.OrderTokens;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** An order placed before fingerprints had versions: a retry of its token still replays it, and another order is still refused. */
@QuarkusTest
@WithTestResource(TestServers.class)
class Version1OrderFingerprintTest {

    @Inject
    RedisDataSource redis;

    @Inject
    OrderTokens tokens;

    @Test
    void aTokenRecordAndOrderRowOfVersion1ReplayTheSameOrderAndRefuseAnother() {
        String token = newToken("alice");
        Response created = placeOrder("alice", token, ORDER);
        created.then().statusCode(201);
        String record = tokens.tokenKey("alice", OrderTokens.hash(token));
        // As version 1 stored them: the same record and row, with that version's fingerprint.
        redis.hash(String.class).hset(record, "fingerprint", NewOrderTest.ORDER_VERSION_1);
        Orders.execute("UPDATE orders SET request_fingerprint = '" + NewOrderTest.ORDER_VERSION_1 + "' WHERE id = '" + created.path("id") + "'");

        assertReplayedAndRefused(token, created);
        // Redis forgot the token: the order's row answers.
        redis.key().del(record);
        assertReplayedAndRefused(token, created);
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    private static void assertReplayedAndRefused(String token, Response created) {
        placeOrder("alice", token, ORDER_REWRITTEN).then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .body("id", equalTo(created.path("id")));
        placeOrder("alice", token, ORDER.replace("\"quantity\":2", "\"quantity\":3")).then()
                .statusCode(422)
                .body("code", equalTo("order-token-reused"))
                .body("orderId", equalTo(created.path("id")));
    }
}
