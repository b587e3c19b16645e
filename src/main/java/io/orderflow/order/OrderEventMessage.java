package io.orderflow.order;

import java.time.Instant;
import java.util.UUID;

/**
 * An order event as it leaves through the outbox and is published to the stream, built from the
 * change of the order; consumers drop repeats by {@code eventId}.
 */
public record OrderEventMessage(UUID eventId, String type, UUID orderId, String customer, Instant at) {

    /** The outbox kind of order events. */
    public static final String KIND = "order-event";

    public static OrderEventMessage of(OrderStatusChanged change) {
        return new OrderEventMessage(UUID.randomUUID(), change.to().wireName(), change.orderId(), change.customer(), change.at());
    }

    /** The outbox key: one message per event. */
    public String key() {
        return "event:" + eventId;
    }
}
