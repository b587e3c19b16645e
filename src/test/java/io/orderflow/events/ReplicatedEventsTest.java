package io.orderflow.events;

import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.PrivateRedisWithReplica;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * Redis replicates asynchronously: a replica promoted after its master died may lack the last stream
 * entries the master took. With orders.events.replicas=1 the outbox lets go of an order event only once
 * a replica holds it, so such a failover loses none: an event the cut-off replica never got is still in
 * the outbox and is published again to the promoted one. The consumer runs only when the test polls, so
 * that it cannot read the event from the master before the master dies.
 */
@QuarkusTest
@TestProfile(ReplicatedEventsTest.OneReplica.class)
@WithTestResource(TestServers.class)
@WithTestResource(PrivateRedisWithReplica.class)
class ReplicatedEventsTest {

    public static class OneReplica implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "orders.events.replicas", "1",
                    "orders.events.replica-timeout", "200ms",
                    "orders.events.poll-interval", "off",
                    "orders.outbox.base-delay", "200ms",
                    "orders.outbox.max-delay", "1s",
                    "orders.outbox.poll-interval", "200ms");
        }
    }

    private static final String EVENTS_WAITING = "SELECT count(*) FROM outbox WHERE kind = 'order-event' AND order_id = ?";
    private static final String ATTEMPTS = "SELECT attempts FROM outbox WHERE kind = 'order-event' AND order_id = ?";
    private static final String LAST_ERROR = "SELECT last_error_code FROM outbox WHERE kind = 'order-event' AND order_id = ?";
    private static final String TIMES_PROCESSED = """
            SELECT count(*) FROM processed_messages p JOIN outbox_delivered d ON d.idempotency_key = 'event:' || p.event_id
            WHERE d.order_id = CAST(? AS uuid)""";

    @Inject
    OrderNotifications notifications;

    @Test
    void anEventTheReplicaNeverGotIsPublishedAgainAfterItIsPromotedAndConsumedOnce() {
        String before = newOrder("alice");
        await().atMost(Duration.ofSeconds(10)).until(() -> Orders.value(EVENTS_WAITING, before).equals("0"));

        PrivateRedisWithReplica.cutOffReplica();
        String during = newOrder("bob");
        // Appended on the master, but no replica acknowledged it: the outbox keeps it and tries again.
        await().atMost(Duration.ofSeconds(10)).until(() -> attemptsOf(during) >= 2);
        assertThat(Orders.value(LAST_ERROR, during)).isEqualTo("delivery-failed");

        PrivateRedisWithReplica.failOverToReplica();

        // Published again until a replica holds it; the consumer may meanwhile read a copy that no replica got.
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            notifications.poll();
            return Orders.value(EVENTS_WAITING, during).equals("0") && notificationsFor(during) == 1;
        });
        notifications.poll();
        assertThat(notificationsFor(before)).isEqualTo(1);
        assertThat(notificationsFor(during)).isEqualTo(1);
        assertThat(Orders.value(TIMES_PROCESSED, during)).isEqualTo("1");
    }

    private static int attemptsOf(String orderId) {
        String attempts = Orders.value(ATTEMPTS, orderId);
        return attempts == null ? 0 : Integer.parseInt(attempts);
    }

    private static int notificationsFor(String orderId) {
        return Integer.parseInt(Orders.value("SELECT count(*) FROM order_notifications WHERE order_id = ?", orderId));
    }
}
