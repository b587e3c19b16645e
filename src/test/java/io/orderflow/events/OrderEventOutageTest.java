package io.orderflow.events;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.PrivateRedis;
import io.orderflow.support.RedisOutages;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** Redis is down for longer than the outbox's attempts budget: an order event waits in line and is published once Redis is back. */
@QuarkusTest
@TestProfile(RedisOutages.class)
@WithTestResource(TestServers.class)
@WithTestResource(PrivateRedis.class)
class OrderEventOutageTest {

    @Test
    void anEventWrittenWhileRedisIsDownPastTheAttemptsBudgetIsPublishedOnceItIsBack() {
        String id = newOrder("alice");
        await().atMost(Duration.ofSeconds(10)).until(() -> notificationsFor(id) == 1);

        PrivateRedis.stopServer();
        String key;
        try {
            // Without an Idempotency-Key: the cancel itself needs PostgreSQL only.
            as("alice").post("/orders/{id}/cancel", id).then().statusCode(200);
            key = Orders.value("SELECT idempotency_key FROM outbox WHERE kind = ? AND order_id = ?", OrderEvents.KIND, id);
            await().atMost(Duration.ofSeconds(20)).until(() -> attempts(key) > RedisOutages.MAX_ATTEMPTS || "DEAD".equals(status(key)));
            assertThat(status(key)).as("an order event past the attempts budget").isEqualTo("PENDING");
        } finally {
            PrivateRedis.startServer();
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> "DELIVERED".equals(status(key)));
        await().atMost(Duration.ofSeconds(20)).until(() -> notificationsFor(id) == 2);
        assertThat(Orders.value("SELECT string_agg(message, ' | ' ORDER BY id) FROM order_notifications WHERE order_id = ?", id))
                .isEqualTo("Your order is created. | Your order is cancelled.");
    }

    private static String status(String key) {
        return Orders.value("SELECT status FROM outbox_all WHERE idempotency_key = ?", key);
    }

    private static int attempts(String key) {
        return Integer.parseInt(Orders.value("SELECT attempts FROM outbox_all WHERE idempotency_key = ?", key));
    }

    private static int notificationsFor(String id) {
        return Integer.parseInt(Orders.value("SELECT count(*) FROM order_notifications WHERE order_id = ?", id));
    }
}
