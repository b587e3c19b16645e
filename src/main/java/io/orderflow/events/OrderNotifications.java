package io.orderflow.events;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.redis.RedisErrors;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.redis.datasource.stream.StreamCommands;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.XGroupCreateArgs;
import io.quarkus.redis.datasource.stream.XReadGroupArgs;

/**
 * Reads order events from the Redis Stream in the consumer group {@value #GROUP} and tells the
 * customer (a notification row). The event id goes into processed_messages in the same transaction
 * as the notification, so an event delivered twice notifies once.
 */
@ApplicationScoped
public class OrderNotifications {

    static final String GROUP = "notifications";
    private static final Logger LOG = Logger.getLogger(OrderNotifications.class);

    private final RedisDataSource redis;
    private final OrderEvents events;
    private final EntityManager db;
    private final ObjectMapper json;
    private final String consumer = "consumer-" + UUID.randomUUID();
    private final Duration claimAfter;
    private volatile boolean groupReady;

    public OrderNotifications(RedisDataSource redis, OrderEvents events, EntityManager db, ObjectMapper json,
            @ConfigProperty(name = "orders.events.claim-after", defaultValue = "30S") Duration claimAfter) {
        this.redis = redis;
        this.claimAfter = claimAfter;
        this.events = events;
        this.db = db;
        this.json = json;
    }

    @Scheduled(every = "${orders.events.poll-interval:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP, delayed = "1s")
    public void poll() {
        ensureGroup();
        StreamCommands<String, String, String> streams = redis.stream(String.class);
        // Entries another consumer read but never acknowledged (its instance died) are taken over once idle.
        handle(streams, streams.xautoclaim(events.stream(), GROUP, consumer, claimAfter, "0-0", 100).getMessages());
        // Then this consumer's own unacknowledged entries (it failed midway), then new ones.
        handle(streams, streams.xreadgroup(GROUP, consumer, events.stream(), "0", new XReadGroupArgs().count(100)));
        while (handle(streams, streams.xreadgroup(GROUP, consumer, events.stream(), ">", new XReadGroupArgs().count(100))) > 0) {
            // keep reading while there is something new
        }
    }

    private int handle(StreamCommands<String, String, String> streams, List<StreamMessage<String, String, String>> messages) {
        for (StreamMessage<String, String, String> message : messages) {
            String event = message.payload().get("event");
            if (event != null) {
                notify(event);
            }
            streams.xack(events.stream(), GROUP, message.id());
        }
        return messages.size();
    }

    /** Handles one event at most once, whatever the number of deliveries; true when it had an effect. */
    @Transactional
    public boolean notify(String eventJson) {
        JsonNode event;
        try {
            event = json.readTree(eventJson);
        } catch (JsonProcessingException e) {
            LOG.warnf("Dropped an unreadable order event: %s", e.getOriginalMessage());
            return false;
        }
        UUID eventId = UUID.fromString(event.path("eventId").asText());
        Instant now = Instant.now();
        int first = db.createNativeQuery("""
                INSERT INTO processed_messages (event_id, consumer, processed_at) VALUES (:id, :consumer, :now)
                ON CONFLICT (event_id) DO NOTHING""")
                .setParameter("id", eventId).setParameter("consumer", GROUP).setParameter("now", now).executeUpdate();
        if (first == 0) {
            return false;
        }
        db.createNativeQuery("""
                INSERT INTO order_notifications (event_id, order_id, customer, message, created_at)
                VALUES (:eventId, :orderId, :customer, :message, :now)""")
                .setParameter("eventId", eventId).setParameter("orderId", UUID.fromString(event.path("orderId").asText()))
                .setParameter("customer", event.path("customer").asText())
                .setParameter("message", "Your order is " + event.path("type").asText() + ".")
                .setParameter("now", now).executeUpdate();
        return true;
    }

    private void ensureGroup() {
        if (groupReady) {
            return;
        }
        try {
            redis.stream(String.class).xgroupCreate(events.stream(), GROUP, "0", new XGroupCreateArgs().mkstream());
        } catch (RuntimeException e) {
            if (!RedisErrors.mentions(e, "BUSYGROUP")) {
                throw e;
            }
        }
        groupReady = true;
    }
}
