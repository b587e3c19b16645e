package io.orderflow.order;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Consumer;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.token.OrderTokens;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.hash.HashCommands;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * A token's replay is its creation's answer as first given, byte for byte, from Redis while it keeps the
 * token's record and from PostgreSQL once Redis lost it; so during a rolling deploy, where two versions
 * share both, an older one answers what a newer one kept as it was kept.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class RollingDeployTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    RedisDataSource redis;

    @Inject
    OrderTokens tokens;

    @Test
    void aReplayIsTheFirstAnswerByteForByte() {
        String token = newToken("alice");
        Response created = placeOrder("alice", token, ORDER);
        created.then().statusCode(201);

        Response again = repeat(token, created);
        assertThat(again.asByteArray()).isEqualTo(created.asByteArray());
    }

    @Test
    void aReplayAfterRedisLostTheTokensRecordIsTheFirstAnswerByteForByte() {
        String token = newToken("alice");
        Response created = placeOrder("alice", token, ORDER);
        created.then().statusCode(201);
        assertThat(Orders.value("SELECT answer FROM order_tokens WHERE token_hash = ?", OrderTokens.hash(token)))
                .as("the answer PostgreSQL keeps with the token's row").isEqualTo(created.asString());
        forgetInRedis(token);

        Response again = repeat(token, created);
        assertThat(again.asByteArray()).isEqualTo(created.asByteArray());
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    @Test
    void aCreationKeptByANewerVersionWithAMemberThisOneDoesNotKnowIsReplayedAsKept() throws JsonProcessingException {
        assertReplayedAsKept(newer -> newer.put("giftWrap", "red ribbon"));
    }

    @Test
    void aCreationKeptByANewerVersionWithAStatusAndActionThisOneDoesNotKnowIsReplayedAsKept() throws JsonProcessingException {
        // A state and an action a newer lifecycle may add: this version has no value for either.
        assertReplayedAsKept(newer -> {
            newer.put("status", "awaiting-authentication");
            newer.putArray("allowedActions").add("authenticate").add("cancel");
        });
    }

    @Test
    void aCreationKeptByANewerVersionIsReplayedAsKeptInPostgresOnceRedisLostIt() throws JsonProcessingException {
        String token = newToken("alice");
        Response created = placeOrder("alice", token, ORDER);
        created.then().statusCode(201);
        ObjectNode newer = (ObjectNode) JSON.readTree(created.asString());
        newer.put("status", "awaiting-authentication").put("giftWrap", "red ribbon");
        Orders.keepTokenAnswer(token, newer.toString());
        forgetInRedis(token);

        Response again = repeat(token, created);
        assertThat(again.asString()).isEqualTo(newer.toString());
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    /** Orders created before answers were kept with their token's row are answered as they were created. */
    @Test
    void anOrderFromBeforeAnswersWereKeptIsReplayedAsItWasCreated() {
        String token = newToken("alice");
        Response created = placeOrder("alice", token, ORDER);
        created.then().statusCode(201);
        Orders.keepTokenAnswer(token, null);
        forgetInRedis(token);

        Response again = repeat(token, created);
        assertThat(again.asByteArray()).isEqualTo(created.asByteArray());
    }

    /**
     * Creates an order, changes the answer its token's record keeps as a newer version would write it, and
     * repeats the creation: the answer is the kept one, byte for byte, neither re-written by this version nor refused.
     */
    private void assertReplayedAsKept(Consumer<ObjectNode> newerVersion) throws JsonProcessingException {
        String token = newToken("alice");
        Response created = placeOrder("alice", token, ORDER);
        created.then().statusCode(201);
        HashCommands<String, String, String> records = redis.hash(String.class);
        String record = tokens.tokenKey("alice", OrderTokens.hash(token));
        String answer = records.hget(record, "answer");
        assertThat(answer).as("the answer the token's record keeps").isNotNull();
        ObjectNode newer = (ObjectNode) JSON.readTree(answer);
        newerVersion.accept(newer);
        records.hset(record, "answer", newer.toString());

        Response again = repeat(token, created);
        assertThat(again.asString()).isEqualTo(newer.toString());
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    /** Redis loses the token's record, as a failover to a replica behind its master does. */
    private void forgetInRedis(String token) {
        assertThat(redis.key().del(tokens.tokenKey("alice", OrderTokens.hash(token)))).as("token records removed").isEqualTo(1);
    }

    /** The creation again with its token: a replay of the first, with its address and type. */
    private static Response repeat(String token, Response created) {
        Response again = placeOrder("alice", token, ORDER);
        again.then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .header("Location", created.header("Location"))
                .header("Content-Type", created.header("Content-Type"));
        return again;
    }
}
