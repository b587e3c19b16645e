package io.orderflow.events;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;

import io.micrometer.core.instrument.Gauge;
import io.orderflow.order.OrderEventMessage;
import io.orderflow.order.OrderStatusChanges;
import io.orderflow.outbox.BatchOutboxHandler;
import io.orderflow.outbox.OutboxBacklog;
import io.orderflow.outbox.OutboxMessage;
import io.orderflow.outbox.OutboxWriter;
import io.orderflow.shared.metrics.AppGauges;
import io.orderflow.shared.redis.RedisKeys;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;

/**
 * Order events (created, paid, shipped, delivered, cancelled) leave through the outbox, written in
 * the transaction of the change, and are published to a Redis Stream, a whole batch in one round
 * trip. Delivery is at least once; each event carries an id by which consumers drop repeats.
 */
@ApplicationScoped
class OrderEvents implements BatchOutboxHandler {

    static final String KIND = OrderEventMessage.KIND;
    /** As long as Quarkus's own Redis calls may take (quarkus.redis.timeout), and well within an outbox lease. */
    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(10);

    private final OutboxWriter outbox;
    private final Redis redis;
    private final RedisKeys keys;
    private final String maxLength;
    private final OutboxBacklog outboxBacklog;

    public OrderEvents(OutboxWriter outbox, OutboxBacklog outboxBacklog, Redis redis, RedisKeys keys, EventsConfig config) {
        this.outbox = outbox;
        this.outboxBacklog = outboxBacklog;
        this.redis = redis;
        this.keys = keys;
        this.maxLength = Long.toString(config.maxLength());
    }

    void registerGauge(@Observes StartupEvent start, AppGauges gauges) {
        gauges.register(Gauge.builder("orders.events.lag", outboxBacklog, backlog -> backlog.pending(KIND).oldestAgeSeconds(Instant.now()))
                .baseUnit("seconds")
                .description("How long the oldest order event not yet published has waited; 0 when none waits"));
    }

    /** A transition's events, in one statement; a creation's is written by the statement that stores the order. */
    void record(@Observes(during = TransactionPhase.IN_PROGRESS) OrderStatusChanges changes) {
        outbox.enqueueAll(KIND, changes.all().stream().map(OrderEventMessage::of)
                .map(event -> new OutboxWriter.Message(event.orderId(), event.key(), event)).toList());
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public void deliverAll(List<OutboxMessage> messages) {
        publish(messages.stream().map(message -> message.payload).toList());
    }

    /**
     * Appends events (their JSON) to the stream in this order, in one round trip, trimming the oldest
     * entries beyond about orders.events.max-length; also what a redelivery looks like to consumers.
     */
    public void publish(List<String> eventJsons) {
        redis.batch(eventJsons.stream().map(this::append).toList()).await().atMost(PUBLISH_TIMEOUT);
    }

    public String stream() {
        return keys.of("events", "orders");
    }

    private Request append(String eventJson) {
        // "~": Redis trims whole nodes only, cheaply, keeping at least maxLength entries.
        return Request.cmd(Command.XADD).arg(stream()).arg("MAXLEN").arg("~").arg(maxLength).arg("*").arg("event").arg(eventJson);
    }
}
