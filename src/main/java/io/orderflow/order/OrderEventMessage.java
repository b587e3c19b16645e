package io.orderflow.order;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.orderflow.lifecycle.OrderEvent;

/**
 * An order event as it leaves through the outbox and is published to the stream, built from the
 * change of the order; consumers drop repeats by {@code eventId}. {@code type} is the status the order
 * reached, {@code event} the transition that took it there (absent for a creation), so that an expiry
 * ({@code expire}) is told from a cancel.
 */
public record OrderEventMessage(UUID eventId, String type, @JsonInclude(JsonInclude.Include.NON_NULL) OrderEvent event, UUID orderId,
        String customer, Instant at) {

    /** The outbox kind of order events. */
    public static final String KIND = "order-event";

    public static OrderEventMessage of(OrderStatusChanged change) {
        return new OrderEventMessage(UUID.randomUUID(), change.to().wireName(), change.event(), change.orderId(), change.customer(),
                change.at());
    }

    /** The outbox key: one message per event. */
    public String key() {
        return "event:" + eventId;
    }
}
