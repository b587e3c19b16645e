package io.orderflow.events;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.events.StreamedOrderEvent.UnreadableEventException;
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
    /** How much of an unreadable entry the log shows. */
    private static final int EXCERPT_LENGTH = 200;

    private static final String RECORD_PROCESSED = """
            INSERT INTO processed_messages (event_id, consumer, processed_at) VALUES (:id, :consumer, :now)
            ON CONFLICT (event_id) DO NOTHING""";
    private static final String INSERT_NOTIFICATION = """
            INSERT INTO order_notifications (event_id, order_id, customer, message, created_at)
            VALUES (:eventId, :orderId, :customer, :message, :now)""";

    private final RedisDataSource redis;
    private final OrderEvents events;
    private final EntityManager db;
    private final ObjectMapper json;
    private final String consumer = "consumer-" + UUID.randomUUID();
    private final Duration claimAfter;
    private final Counter deadLetters;
    private volatile boolean groupReady;

    public OrderNotifications(RedisDataSource redis, OrderEvents events, EntityManager db, ObjectMapper json, EventsConfig config,
            MeterRegistry metrics) {
        this.redis = redis;
        this.claimAfter = config.claimAfter();
        this.events = events;
        this.db = db;
        this.json = json;
        this.deadLetters = metrics.counter("orders.events.dead-letters");
    }

    @Scheduled(every = "${orders.events.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP, delayed = "1s")
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

    /**
     * Handles and acknowledges each entry. An entry that can never be read is dead-lettered, so it does
     * not come back forever and hold up the entries behind it; any other failure leaves it pending, to
     * be read again.
     */
    private int handle(StreamCommands<String, String, String> streams, List<StreamMessage<String, String, String>> messages) {
        for (StreamMessage<String, String, String> message : messages) {
            try {
                notify(message.payload().get("event"));
            } catch (UnreadableEventException e) {
                deadLetter(message, e.getMessage());
            }
            streams.xack(events.stream(), GROUP, message.id());
        }
        return messages.size();
    }

    /** Handles one event at most once, whatever the number of deliveries; true when it had an effect. */
    @Transactional
    public boolean notify(String eventJson) {
        StreamedOrderEvent event = StreamedOrderEvent.read(json, eventJson);
        Instant now = Instant.now();
        int first = db.createNativeQuery(RECORD_PROCESSED)
                .setParameter("id", event.eventId()).setParameter("consumer", GROUP).setParameter("now", now).executeUpdate();
        if (first == 0) {
            return false;
        }
        db.createNativeQuery(INSERT_NOTIFICATION)
                .setParameter("eventId", event.eventId()).setParameter("orderId", event.orderId())
                .setParameter("customer", event.customer())
                .setParameter("message", "Your order is " + event.status().wireName() + ".")
                .setParameter("now", now).executeUpdate();
        return true;
    }

    private void deadLetter(StreamMessage<String, String, String> message, String reason) {
        deadLetters.increment();
        String entry = String.valueOf(message.payload());
        String excerpt = entry.length() <= EXCERPT_LENGTH ? entry
                : entry.substring(0, EXCERPT_LENGTH) + "... (" + entry.length() + " characters)";
        LOG.warnf("Dead-lettered order event entry %s of %s, since %s: %s", message.id(), events.stream(), reason, excerpt);
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
