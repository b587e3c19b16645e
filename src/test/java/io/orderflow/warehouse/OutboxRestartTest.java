package io.orderflow.warehouse;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.outbox.OutboxDelivery;
import io.orderflow.support.Ledger;
import io.orderflow.support.ManualDelivery;
import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Shipments wait in the outbox while nothing relays them (the service is down), then several relays
 * start at once (instances coming back): each shipment reaches the warehouse exactly once.
 */
@QuarkusTest
@TestProfile(ManualDelivery.class)
@WithTestResource(TestServers.class)
class OutboxRestartTest {

    @Inject
    OutboxDelivery delivery;

    @Test
    void pendingShipmentsAreDeliveredOnceWhenRelaysResume() {
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String id = newOrder("alice");
            act("alice", id, "pay").then().statusCode(200);
            act("ops", id, "ship").then().statusCode(200);
            orders.add(id);
        }
        for (String id : orders) {
            assertThat(Orders.value("SELECT status FROM outbox WHERE idempotency_key = ?", "shipment:" + id)).isEqualTo("PENDING");
            assertThat(Ledger.of(id).shipmentCalls()).isZero();
        }

        // Four instances start relaying at the same moment, each until nothing is due.
        Parallel.run(4, () -> {
            int delivered = 0;
            for (int batch = delivery.relay(); batch > 0; batch = delivery.relay()) {
                delivered += batch;
            }
            return delivered;
        });

        for (String id : orders) {
            Ledger ledger = Ledger.of(id);
            assertThat(ledger.shipments()).as("shipments of %s", id).isEqualTo(1);
            assertThat(ledger.shipmentCalls()).as("calls for %s", id).isEqualTo(1);
            assertThat(Orders.value("SELECT status FROM outbox_all WHERE idempotency_key = ?", "shipment:" + id)).isEqualTo("DELIVERED");
        }
    }
}
