package io.orderflow.events;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;

import io.orderflow.order.OrderStatusChanged;
import io.orderflow.outbox.Outbox;
import io.orderflow.outbox.OutboxHandler;
import io.orderflow.outbox.OutboxMessage;
import io.orderflow.shared.redis.RedisKeys;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.XAddArgs;

/**
 * Order events (created, paid, shipped, delivered, cancelled) leave through the outbox, written in
 * the transaction of the change, and are published to a Redis Stream. Delivery is at least once;
 * each event carries an id by which consumers drop repeats.
 */
@ApplicationScoped
public class OrderEvents implements OutboxHandler {

    static final String KIND = "order-event";

    private final Outbox outbox;
    private final RedisDataSource redis;
    private final RedisKeys keys;
    private final XAddArgs trimmed;

    public OrderEvents(Outbox outbox, RedisDataSource redis, RedisKeys keys, EventsConfig config) {
        this.outbox = outbox;
        this.redis = redis;
        this.keys = keys;
        // "~": Redis trims whole nodes only, cheaply, keeping at least maxLength entries.
        this.trimmed = new XAddArgs().maxlen(config.maxLength()).nearlyExactTrimming();
    }

    void record(@Observes(during = TransactionPhase.IN_PROGRESS) OrderStatusChanged change) {
        UUID eventId = UUID.randomUUID();
        Map<String, String> event = new LinkedHashMap<>();
        event.put("eventId", eventId.toString());
        event.put("type", change.to().wireName());
        event.put("orderId", change.orderId().toString());
        event.put("customer", change.customer());
        event.put("at", change.at().toString());
        outbox.enqueue(KIND, change.orderId(), "event:" + eventId, event);
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public void deliver(OutboxMessage message) {
        publish(message.payload);
    }

    /**
     * Appends an event (its JSON) to the stream, trimming the oldest entries beyond about
     * orders.events.max-length; also what a redelivery looks like to consumers.
     */
    public void publish(String eventJson) {
        redis.stream(String.class).xadd(stream(), trimmed, Map.of("event", eventJson));
    }

    public String stream() {
        return keys.of("events", "orders");
    }
}
