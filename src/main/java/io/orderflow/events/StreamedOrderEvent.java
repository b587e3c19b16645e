package io.orderflow.events;

import java.util.UUID;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;

/**
 * An order event as read from the stream: every field a notification needs, checked before anything is
 * written. {@code event} is the transition, null for a creation, or for one this reader does not know.
 */
record StreamedOrderEvent(UUID eventId, UUID orderId, String customer, OrderStatus status, OrderEvent event) {

    /** An entry that no number of deliveries will make readable. */
    static final class UnreadableEventException extends RuntimeException {
        UnreadableEventException(String reason) {
            super(reason, null, false, false);
        }
    }

    /** As long as a customer's name may be (order_notifications.customer). */
    private static final int MAX_CUSTOMER_LENGTH = 255;

    static StreamedOrderEvent read(ObjectMapper json, String eventJson) {
        if (eventJson == null) {
            throw new UnreadableEventException("it has no event field");
        }
        JsonNode event;
        try {
            event = json.readTree(eventJson);
        } catch (JsonProcessingException e) {
            throw new UnreadableEventException("its event is not JSON");
        }
        if (event == null || !event.isObject()) {
            throw new UnreadableEventException("its event is not a JSON object");
        }
        String customer = event.path("customer").asText();
        if (customer.isBlank() || customer.length() > MAX_CUSTOMER_LENGTH) {
            throw new UnreadableEventException("its customer is missing or too long");
        }
        // PostgreSQL's text holds no NUL: such an event would fail its whole read at every delivery, for good.
        if (customer.indexOf('\0') >= 0) {
            throw new UnreadableEventException("its customer holds a NUL character");
        }
        return new StreamedOrderEvent(uuid(event, "eventId"), uuid(event, "orderId"), customer, status(event.path("type").asText()),
                transition(event.path("event").asText()));
    }

    /** What the customer is told. */
    String notification() {
        return event == OrderEvent.EXPIRE ? "Your order expired unpaid; its items are back on sale."
                : "Your order is " + status.wireName() + ".";
    }

    /** The transition; an unknown one (a newer writer's) reads as none, since the status says enough. */
    private static OrderEvent transition(String name) {
        try {
            return name.isEmpty() ? null : OrderEvent.fromWireName(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static UUID uuid(JsonNode event, String field) {
        try {
            return UUID.fromString(event.path(field).asText());
        } catch (IllegalArgumentException e) {
            throw new UnreadableEventException("its " + field + " is not a UUID");
        }
    }

    private static OrderStatus status(String type) {
        try {
            return OrderStatus.fromWireName(type);
        } catch (IllegalArgumentException e) {
            throw new UnreadableEventException("its type is not an order status");
        }
    }
}
