package io.orderflow.idempotency;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.ORDER_REWRITTEN;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newToken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** Idempotency-Keys kept before fingerprints had versions: the same request still gets its answer, another is still refused. */
@QuarkusTest
@WithTestResource(TestServers.class)
class Version1KeyFingerprintTest {

    @Inject
    RedisDataSource redis;

    @Inject
    IdempotencyStore store;

    @Test
    void aRecordAndRowKeptByVersion1ReplayTheSameRequestAndRefuseAnother() {
        String key = UUID.randomUUID().toString();
        Response first = placeOrder(key, ORDER);
        first.then().statusCode(201);
        String record = recordKey(key);
        // As version 1 kept them: the same record and row, with that version's fingerprint.
        redis.hash(String.class).hset(record, "fingerprint", RequestFingerprintTest.ORDER_VERSION_1);
        Orders.execute("UPDATE idempotency_keys SET fingerprint = '" + RequestFingerprintTest.ORDER_VERSION_1 + "' WHERE idempotency_key = '"
                + key + "'");

        assertReplayedAndRefused(key, first);
        // Redis forgot the key: PostgreSQL's row answers.
        redis.key().del(record);
        assertReplayedAndRefused(key, first);
    }

    @Test
    void aRequestVersion1LeftRunningHoldsItsKeyUntilItsLeaseRunsOut() {
        String key = UUID.randomUUID().toString();
        String record = recordKey(key);
        // As version 1 claimed it for a request that is still running.
        redis.hash(String.class).hset(record, Map.of("state", "running", "fingerprint", RequestFingerprintTest.ORDER_VERSION_1,
                "claimId", UUID.randomUUID().toString(), "leaseUntil", Long.toString(System.currentTimeMillis() + 60_000)));

        placeOrder(key, ORDER).then().statusCode(409).body("code", equalTo("idempotency-key-in-use"));
        placeOrder(key, ORDER.replace("\"quantity\":2", "\"quantity\":3")).then().statusCode(422).body("code", equalTo("idempotency-key-reused"));

        // Its holder died: the same request takes the key over and runs, and a retry gets its answer.
        redis.hash(String.class).hset(record, "leaseUntil", "0");
        Response takenOver = placeOrder(key, ORDER);
        takenOver.then().statusCode(201).header("Idempotent-Replayed", (String) null);
        placeOrder(key, ORDER).then().statusCode(201).header("Idempotent-Replayed", "true").body("id", equalTo(takenOver.path("id")));
    }

    private static void assertReplayedAndRefused(String key, Response first) {
        Response again = placeOrder(key, ORDER_REWRITTEN);
        again.then().statusCode(201).header("Idempotent-Replayed", "true");
        assertThat(again.asByteArray()).isEqualTo(first.asByteArray());
        placeOrder(key, ORDER.replace("\"quantity\":2", "\"quantity\":3")).then().statusCode(422).body("code", equalTo("idempotency-key-reused"));
    }

    private String recordKey(String key) {
        return store.recordKey(new KeyScope("alice", "POST", "/orders", key));
    }

    /** POST /orders as alice with the key and a fresh token: only the key can make it a replay. */
    private static Response placeOrder(String key, String body) {
        return as("alice").header("Idempotency-Key", key).header("Order-Token", newToken("alice")).contentType(ContentType.JSON).body(body)
                .post("/orders");
    }
}
