package io.orderflow.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.support.FastTest;

/** What a customer is told of an order event, read as the stream carries it. */
@FastTest
class StreamedOrderEventTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void anExpiryIsToldApartFromACancel() {
        StreamedOrderEvent expired = read("cancelled", "\"event\":\"expire\",");
        StreamedOrderEvent cancelled = read("cancelled", "\"event\":\"cancel\",");

        assertThat(expired.event()).isEqualTo(OrderEvent.EXPIRE);
        assertThat(expired.notification()).isEqualTo("Your order expired unpaid; its items are back on sale.");
        assertThat(cancelled.notification()).isEqualTo("Your order is cancelled.");
    }

    @Test
    void aCreationHasNoTransitionAndAnUnknownOneReadsAsNone() {
        StreamedOrderEvent created = read("created", "");
        StreamedOrderEvent unknown = read("delivered", "\"event\":\"hand-over\",");

        assertThat(created.event()).isNull();
        assertThat(created.notification()).isEqualTo("Your order is created.");
        assertThat(unknown.status()).isEqualTo(OrderStatus.DELIVERED);
        assertThat(unknown.event()).isNull();
        assertThat(unknown.notification()).isEqualTo("Your order is delivered.");
    }

    private static StreamedOrderEvent read(String type, String event) {
        return StreamedOrderEvent.read(JSON, "{\"eventId\":\"%s\",\"type\":\"%s\",%s\"orderId\":\"%s\",\"customer\":\"bob\"}"
                .formatted(UUID.randomUUID(), type, event, UUID.randomUUID()));
    }
}
