package io.orderflow.events;

import static io.orderflow.support.Api.newOrder;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.support.TightLimits;
import io.orderflow.support.UserStoreProxy;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The relay publishes an order event as soon as its transaction commits, not at the next poll (here an hour away). */
@QuarkusTest
@TestProfile(TightLimits.class)
@WithTestResource(TestServers.class)
@WithTestResource(UserStoreProxy.class)
class OrderEventWakeUpTest {

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
