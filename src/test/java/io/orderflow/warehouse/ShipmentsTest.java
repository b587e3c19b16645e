package io.orderflow.warehouse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.outbox.OutboxMessage;
import io.orderflow.shared.JsonSettings;
import io.orderflow.shared.StoredJson;
import io.orderflow.support.FastTest;

/** A shipment waiting in the outbox is delivered by whichever version of the service runs next. */
@FastTest
class ShipmentsTest {

    @Test
    void aShipmentQueuedByANewerVersionWithMembersThisOneDoesNotKnowIsDelivered() {
        ObjectMapper json = new ObjectMapper();
        new JsonSettings().customize(json);
        List<ShipmentRequest> requested = new ArrayList<>();
        Shipments shipments = new Shipments(null, new WarehouseGateway((key, request) -> {
            requested.add(request);
            return null;
        }), null, new StoredJson(json), null, new ShipmentReceipts(null));
        UUID orderId = UUID.randomUUID();
        OutboxMessage message = new OutboxMessage();
        message.idempotencyKey = "shipment:" + orderId;
        message.payload = """
                {"orderId":"%s","items":[{"sku":"ABC-1","quantity":2,"bin":"A-7"}],"carrier":"express"}""".formatted(orderId);

        shipments.deliver(message);

        assertThat(requested).containsExactly(new ShipmentRequest(orderId, List.of(new ShipmentRequest.Item("ABC-1", 2)), null));
    }
}
