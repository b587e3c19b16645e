package io.orderflow.idempotency;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.keys.KeyScanArgs;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * Order tokens are never kept in plain text, not even inside the answer an Idempotency-Key keeps: a keyed
 * {@code POST /orders/token} keeps its answer sealed in PostgreSQL and in Redis, and a retry with the key
 * still answers the same token, byte for byte.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class SealedTokenAnswerTest {

    private static final String KEY_ROWS = "SELECT string_agg(k::text, E'\\n') FROM idempotency_keys k";
    private static final String KEPT_BODY = "SELECT body FROM idempotency_keys WHERE idempotency_key = ?";
    private static final String KEEP_PLAIN = "UPDATE idempotency_keys SET body = ? WHERE idempotency_key = ? RETURNING body";

    @Inject
    RedisDataSource redis;

    @Inject
    IdempotencyStore store;

    @Test
    void aKeyedTokenIsKeptNowhereInPlainTextAndARetryAnswersTheSameToken() {
        String key = UUID.randomUUID().toString();
        Response first = issue(key);
        first.then().statusCode(201).header("Cache-Control", "no-store");
        String token = field(first, "token");

        assertReplayed(first, issue(key));
        assertThat(Orders.value(KEY_ROWS)).as("idempotency_keys").isNotNull().doesNotContain(token);
        assertThat(Orders.value(KEPT_BODY, key)).startsWith(AnswerSeal.SEALED);
        assertThat(redisBody(key)).startsWith(AnswerSeal.SEALED);
        assertThat(redisValues()).as("Redis values under " + TestServers.keyPrefix()).isNotEmpty().noneMatch(value -> value.contains(token));

        // Redis forgot the key: PostgreSQL answers, opened again, and Redis is refilled sealed.
        redis.key().del(store.recordKey(scopeOf(key)));
        assertReplayed(first, issue(key));
        assertThat(redisBody(key)).startsWith(AnswerSeal.SEALED);
        assertReplayed(first, issue(key));
        assertThat(redisValues()).noneMatch(value -> value.contains(token));
    }

    @Test
    void anAnswerKeptInPlainTextBeforeSealingIsStillReplayed() {
        String key = UUID.randomUUID().toString();
        Response first = issue(key);
        first.then().statusCode(201);
        // As a release before sealing kept it; Redis forgot it, so PostgreSQL answers.
        assertThat(Orders.value(KEEP_PLAIN, first.asString(), key)).isEqualTo(first.asString());
        redis.key().del(store.recordKey(scopeOf(key)));

        assertReplayed(first, issue(key));
    }

    @Test
    void anAnswerSealedUnderAnotherSessionKeyIsGoneAndSaysSoNeverA500() {
        String key = UUID.randomUUID().toString();
        issue(key).then().statusCode(201);
        // As sealed by instances whose session key was rotated since.
        String sealedElsewhere = new AnswerSeal(java.util.Optional.of("a-session-key-rotated-away-long-ago")).seal("{\"token\":\"x\"}");
        assertThat(Orders.value(KEEP_PLAIN, sealedElsewhere, key)).isEqualTo(sealedElsewhere);
        redis.key().del(store.recordKey(scopeOf(key)));

        issue(key).then().statusCode(410).body("code", org.hamcrest.Matchers.equalTo("idempotency-key-expired"));
        issue(UUID.randomUUID().toString()).then().statusCode(201);
    }

    private static Response issue(String key) {
        return as("alice").header("Idempotency-Key", key).post("/orders/token");
    }

    private static void assertReplayed(Response first, Response again) {
        again.then().statusCode(201).header("Idempotent-Replayed", "true").header("Cache-Control", "no-store")
                .header("Content-Type", first.header("Content-Type"));
        assertThat(again.asByteArray()).isEqualTo(first.asByteArray());
    }

    /** The body of the key's record in Redis, once the record is refilled (it is, without the request waiting). */
    private String redisBody(String key) {
        String record = store.recordKey(scopeOf(key));
        return await().until(() -> redis.hash(String.class).hget(record, "body"), body -> body != null);
    }

    private static KeyScope scopeOf(String key) {
        return new KeyScope("alice", "POST", "/orders/token", key);
    }

    /** Every value Redis holds under this run's prefix, whatever its type, member by member. */
    private List<String> redisValues() {
        List<String> values = new ArrayList<>();
        for (String name : redis.key(String.class).scan(new KeyScanArgs().match(TestServers.keyPrefix() + "*")).toIterable()) {
            switch (redis.key(String.class).type(name)) {
                case STRING -> values.add(redis.value(String.class).get(name));
                case HASH -> values.addAll(redis.hash(String.class).hgetall(name).values());
                case ZSET -> values.addAll(redis.sortedSet(String.class).zrange(name, 0, -1));
                case SET -> values.addAll(redis.set(String.class).smembers(name));
                case LIST -> values.addAll(redis.list(String.class).lrange(name, 0, -1));
                default -> values.add(name);
            }
        }
        return values;
    }
}
