package io.orderflow.order;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

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

/** During a rolling deploy two versions share Redis: what a newer one kept, an older one still answers from. */
@QuarkusTest
@WithTestResource(TestServers.class)
class RollingDeployTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    RedisDataSource redis;

    @Inject
    OrderTokens tokens;

    @Test
    void aCreationKeptByANewerVersionWithAMemberThisOneDoesNotKnowIsReplayed() throws JsonProcessingException {
        String token = newToken("alice");
        Response created = placeOrder("alice", token, ORDER);
        created.then().statusCode(201);

        // As a newer version keeps it: its answer carries a member this version has never heard of.
        HashCommands<String, String, String> records = redis.hash(String.class);
        String record = tokens.tokenKey("alice", OrderTokens.hash(token));
        String answer = records.hget(record, "answer");
        assertThat(answer).as("the answer the token's record keeps").isNotNull();
        ObjectNode newer = (ObjectNode) JSON.readTree(answer);
        newer.put("giftWrap", "red ribbon");
        records.hset(record, "answer", newer.toString());

        placeOrder("alice", token, ORDER).then()
                .statusCode(201)
                .header("Idempotent-Replayed", "true")
                .header("Location", created.header("Location"))
                .body("id", equalTo(created.path("id")))
                .body("totalAmount", equalTo(created.path("totalAmount")));
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }
}
