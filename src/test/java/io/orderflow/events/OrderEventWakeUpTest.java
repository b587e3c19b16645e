package io.orderflow.events;

import static io.orderflow.support.Api.newOrder;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** The relay publishes an order event as soon as its transaction commits, not at the next poll (here an hour away). */
@QuarkusTest
@TestProfile(OrderEventWakeUpTest.HourlyPolls.class)
@WithTestResource(TestServers.class)
class OrderEventWakeUpTest {

    public static class HourlyPolls implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orders.outbox.poll-interval", "1h");
        }
    }

    @Test
    void aNewOrdersEventIsPublishedWithinASecond() {
        // Several in a row: the first poll, a second after start, could relay one of them, never all.
        for (int i = 0; i < 3; i++) {
            String id = newOrder("alice");
            await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(20))
                    .until(() -> "1".equals(Orders.value("SELECT count(*) FROM outbox_delivered WHERE order_id = ?", id)));
        }
    }
}
