package io.orderflow.catalog;

import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static io.orderflow.support.Products.newProduct;
import static io.orderflow.support.Products.orderOf;
import static io.orderflow.support.Products.stock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.shared.redis.RedisKeys;
import io.orderflow.support.Parallel;
import io.orderflow.support.StockPrecheckOn;
import io.orderflow.support.TestServers;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.value.SetArgs;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/** With the Redis pre-check on, a counter that is wrong either way may turn buyers away for a moment but never oversells. */
@QuarkusTest
@TestProfile(StockPrecheckOn.class)
@WithTestResource(TestServers.class)
class StockPrecheckTest {

    @Inject
    RedisDataSource redis;

    @Inject
    RedisKeys keys;

    @Test
    void aCounterThatSaysTooMuchNeverOversells() {
        String sku = newProduct("5.00", 2);
        redis.value(Integer.class).set(keys.of("sku:" + sku, "available"), 1000);

        List<Response> answers = Parallel.run(8, () -> placeOrder("alice", newToken("alice"), orderOf(sku, 1)));

        assertThat(answers).extracting(Response::statusCode).containsOnly(201, 409);
        assertThat(answers.stream().filter(answer -> answer.statusCode() == 201)).hasSize(2);
        assertThat(stock(sku)).isEqualTo("2/2");
    }

    @Test
    void aCounterThatSaysTooLittleTurnsBuyersAwayOnlyUntilItExpires() {
        String sku = newProduct("5.00", 10);
        String token = newToken("bob");
        redis.value(Integer.class).set(keys.of("sku:" + sku, "available"), 0, new SetArgs().px(Duration.ofMillis(1500)));

        placeOrder("bob", token, orderOf(sku, 1)).then().statusCode(409);
        await().atMost(Duration.ofSeconds(5)).until(() -> placeOrder("bob", token, orderOf(sku, 1)).statusCode() == 201);
        assertThat(stock(sku)).isEqualTo("10/1");
    }

    @Test
    void aSaleWithThePrecheckSellsExactlyWhatIsInStock() {
        String sku = newProduct("5.00", 20);

        List<Response> answers = Parallel.run(64, () -> placeOrder("alice", newToken("alice"), orderOf(sku, 1)));
        assertThat(answers).extracting(Response::statusCode).containsOnly(201, 409);
        long sold = answers.stream().filter(answer -> answer.statusCode() == 201).count();
        assertThat(stock(sku)).isEqualTo("20/" + sold);

        // Buyers turned away by a counter that was behind are only turned away for a moment: all 20 sell, never a 21st.
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            placeOrder("alice", newToken("alice"), orderOf(sku, 1));
            return stock(sku).equals("20/20");
        });
        placeOrder("alice", newToken("alice"), orderOf(sku, 1)).then().statusCode(409);
        assertThat(stock(sku)).isEqualTo("20/20");
    }
}
