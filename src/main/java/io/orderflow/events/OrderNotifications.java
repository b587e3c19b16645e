package io.orderflow.events;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.orderflow.events.StreamedOrderEvent.UnreadableEventException;
import io.orderflow.outbox.OutboxWriter;
import io.orderflow.shared.StopsWithTheApp;
import io.orderflow.shared.WorkInProgress;
import io.orderflow.shared.redis.RedisErrors;
import io.orderflow.shared.tracing.TraceParents;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.redis.datasource.stream.StreamCommands;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.XGroupCreateArgs;
import io.quarkus.redis.datasource.stream.XReadGroupArgs;

/**
 * Reads order events from every Redis Stream they are spread over, in the consumer group {@value #GROUP}, and tells the
 * customer (a notification row), a read of up to {@value #READ_BATCH} entries at a time in one
 * transaction. The event ids go into processed_messages in the same statement as the notifications,
 * so an event delivered twice notifies once. An entry that carries a traceparent is handled under a
 * span continuing that trace, a child of the span that published it.
 */
@ApplicationScoped
class OrderNotifications {

    static final String GROUP = "notifications";
    private static final Logger LOG = Logger.getLogger(OrderNotifications.class);
    /** How much of an unreadable entry the log shows. */
    private static final int EXCERPT_LENGTH = 200;

    /** How many entries one read takes, and so one transaction handles. */
    private static final int READ_BATCH = 100;
    /** The span of one event's handling, a child of the span that published it. */
    static final String PROCESS_SPAN = "order-event process";

    // Events already processed are dropped by the insert into processed_messages; only the new ones notify, in stream order.
    private static final String NOTIFY_NEW = """
            WITH batch AS (
                SELECT * FROM unnest(CAST(:eventIds AS uuid[]), CAST(:orderIds AS uuid[]), CAST(:customers AS text[]), CAST(:messages AS text[]))
                    WITH ORDINALITY AS event (event_id, order_id, customer, message, position)),
            fresh AS (
                INSERT INTO processed_messages (event_id, consumer, processed_at) SELECT event_id, :consumer, :now FROM batch
                ON CONFLICT (event_id) DO NOTHING
                RETURNING event_id)
            INSERT INTO order_notifications (event_id, order_id, customer, message, created_at)
            SELECT event_id, order_id, customer, message, :now FROM batch JOIN fresh USING (event_id) ORDER BY position""";

    // Published but never recorded by a consumer: back into the outbox, to be published again (keys are event:{eventId}).
    private static final String REDELIVER_UNCONSUMED = """
            WITH lost AS (
                DELETE FROM outbox_delivered d
                WHERE d.kind = :kind AND d.delivered_at >= :since
                  AND NOT EXISTS (SELECT 1 FROM processed_messages p WHERE p.event_id = CAST(substr(d.idempotency_key, 7) AS uuid))
                RETURNING kind, order_id, idempotency_key, payload, created_at, trace_parent)
            INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at, trace_parent)
            SELECT kind, order_id, idempotency_key, payload, 'PENDING', 0, :now, created_at, trace_parent FROM lost
            ON CONFLICT (idempotency_key) DO NOTHING""";

    private final RedisDataSource redis;
    private final OrderEvents events;
    private final OutboxWriter outbox;
    private final EntityManager db;
    private final ObjectMapper json;
    private final String consumer = "consumer-" + UUID.randomUUID();
    private final Duration claimAfter;
    private final Duration redeliverWithin;
    private final Counter deadLetters;
    private final Tracer tracer;
    private final WorkInProgress work;
    /** The streams whose consumer group is known to exist. */
    private final Set<String> readyStreams = ConcurrentHashMap.newKeySet();
    /** This instance created the group and has not yet queued again what the lost stream held. */
    private volatile boolean redeliveryDue;

    public OrderNotifications(RedisDataSource redis, OrderEvents events, OutboxWriter outbox, EntityManager db, ObjectMapper json,
            EventsConfig config, MeterRegistry metrics, Tracer tracer, WorkInProgress work) {
        this.redis = redis;
        this.tracer = tracer;
        this.claimAfter = config.claimAfter();
        this.redeliverWithin = config.redeliverWithin();
        this.events = events;
        this.outbox = outbox;
        this.db = db;
        this.json = json;
        this.deadLetters = metrics.counter("orders.events.dead-letters");
        this.work = work;
    }

    @StopsWithTheApp
    @Scheduled(every = "${orders.events.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP, delayed = "1s")
    public void poll() {
        for (String stream : events.streams()) {
            ensureGroup(stream);
            try {
                consume(stream);
            } catch (RuntimeException e) {
                if (!RedisErrors.mentions(e, "NOGROUP")) {
                    throw e;
                }
                // Redis lost the stream with its group (restarted without its data): the next poll creates both again.
                readyStreams.remove(stream);
                LOG.warnf("The consumer group %s of %s is gone; it is created again at the next poll", GROUP, stream);
            }
        }
        redeliverIfDue();
    }

    private void consume(String stream) {
        StreamCommands<String, String, String> streams = redis.stream(String.class);
        // Entries another consumer read but never acknowledged (its instance died) are taken over once idle.
        handle(stream, streams.xautoclaim(stream, GROUP, consumer, claimAfter, "0-0", READ_BATCH).getMessages());
        // Then this consumer's own unacknowledged entries (it failed midway), then new ones.
        handle(stream, streams.xreadgroup(GROUP, consumer, stream, "0", new XReadGroupArgs().count(READ_BATCH)));
        while (!work.stopping() && handle(stream, streams.xreadgroup(GROUP, consumer, stream, ">", new XReadGroupArgs().count(READ_BATCH))) > 0) {
            // keep reading while there is something new
        }
    }

    /**
     * At the stop, once no poll runs: this consumer leaves the group of every stream where it holds no entry,
     * so that the groups do not gather one idle consumer per start. One that does hold entries (a batch
     * failed midway) stays, so that another consumer takes them over once idle.
     */
    void leaveGroups(@Observes ShutdownEvent shutdown) {
        for (String stream : readyStreams) {
            try {
                StreamCommands<String, String, String> streams = redis.stream(String.class);
                if (streams.xpending(stream, GROUP).getConsumers().getOrDefault(consumer, 0L) == 0) {
                    streams.xgroupDelConsumer(stream, GROUP, consumer);
                }
            } catch (RuntimeException redisUnavailable) {
                LOG.debugf("Could not leave the consumer group of %s: %s", stream, redisUnavailable.toString());
            }
        }
    }

    /**
     * Handles the entries of one read in one transaction and acknowledges them all at once. An entry
     * that can never be read is dead-lettered, so it does not come back forever and hold up the entries
     * behind it; if the transaction fails, every entry stays pending, to be read again.
     */
    private int handle(String stream, List<StreamMessage<String, String, String>> messages) {
        if (messages.isEmpty()) {
            return 0;
        }
        List<StreamedOrderEvent> readable = new ArrayList<>();
        Map<StreamMessage<String, String, String>, String> unreadable = new LinkedHashMap<>();
        List<Span> spans = new ArrayList<>();
        for (StreamMessage<String, String, String> message : messages) {
            try {
                StreamedOrderEvent event = StreamedOrderEvent.read(json, message.payload().get("event"));
                readable.add(event);
                processSpan(message, event).ifPresent(spans::add);
            } catch (UnreadableEventException e) {
                unreadable.put(message, e.getMessage());
            }
        }
        try {
            if (!readable.isEmpty()) {
                notifyCustomers(readable);
            }
            unreadable.forEach(this::deadLetter);
            redis.stream(String.class).xack(stream, GROUP, messages.stream().map(StreamMessage::id).toArray(String[]::new));
        } catch (RuntimeException e) {
            spans.forEach(span -> span.recordException(e).setStatus(StatusCode.ERROR));
            throw e;
        } finally {
            spans.forEach(Span::end);
        }
        return messages.size();
    }

    /**
     * The span of an event's handling, continuing the trace of the entry's traceparent; none for an entry
     * without one, or whose trace is not recorded. The whole read is one transaction, so the span covers it.
     */
    private Optional<Span> processSpan(StreamMessage<String, String, String> message, StreamedOrderEvent event) {
        String traceParent = message.payload().get(TraceParents.FIELD);
        if (traceParent == null) {
            return Optional.empty();
        }
        Span span = tracer.spanBuilder(PROCESS_SPAN).setSpanKind(SpanKind.CONSUMER).setParent(TraceParents.parent(traceParent)).startSpan();
        if (!span.isRecording()) {
            return Optional.empty();
        }
        span.setAttribute("messaging.system", "redis").setAttribute("messaging.operation.type", "process")
                .setAttribute("messaging.destination.name", message.key()).setAttribute("messaging.consumer.group.name", GROUP)
                .setAttribute("messaging.message.id", message.id()).setAttribute("orders.order_id", event.orderId().toString());
        return Optional.of(span);
    }

    /** Tells each event's customer, at most once per event however often it is delivered; returns how many were told. */
    @Transactional
    int notifyCustomers(List<StreamedOrderEvent> delivered) {
        // An event read twice in one batch counts once.
        Map<UUID, StreamedOrderEvent> byId = new LinkedHashMap<>();
        delivered.forEach(event -> byId.putIfAbsent(event.eventId(), event));
        List<StreamedOrderEvent> distinct = List.copyOf(byId.values());
        return db.createNativeQuery(NOTIFY_NEW)
                .setParameter("eventIds", distinct.stream().map(StreamedOrderEvent::eventId).toArray(UUID[]::new))
                .setParameter("orderIds", distinct.stream().map(StreamedOrderEvent::orderId).toArray(UUID[]::new))
                .setParameter("customers", distinct.stream().map(StreamedOrderEvent::customer).toArray(String[]::new))
                .setParameter("messages", distinct.stream().map(StreamedOrderEvent::notification).toArray(String[]::new))
                .setParameter("consumer", GROUP).setParameter("now", Instant.now())
                .executeUpdate();
    }

    private void deadLetter(StreamMessage<String, String, String> message, String reason) {
        deadLetters.increment();
        String entry = String.valueOf(message.payload());
        String excerpt = entry.length() <= EXCERPT_LENGTH ? entry
                : entry.substring(0, EXCERPT_LENGTH) + "... (" + entry.length() + " characters)";
        LOG.warnf("Dead-lettered order event entry %s of %s, since %s: %s", message.id(), message.key(), reason, excerpt);
    }

    private void ensureGroup(String stream) {
        if (readyStreams.contains(stream)) {
            return;
        }
        try {
            redis.stream(String.class).xgroupCreate(stream, GROUP, "0", new XGroupCreateArgs().mkstream());
            // A new group: the stream may have been lost with events no consumer had recorded.
            redeliveryDue = true;
        } catch (RuntimeException e) {
            if (!RedisErrors.mentions(e, "BUSYGROUP")) {
                throw e;
            }
        }
        readyStreams.add(stream);
    }

    private void redeliverIfDue() {
        if (redeliveryDue) {
            int redelivered = redeliverUnconsumed();
            redeliveryDue = false;
            if (redelivered > 0) {
                LOG.warnf("Created the consumer group %s again and queued again %d order events no consumer had recorded", GROUP, redelivered);
            }
        }
    }

    /** Queues again the order events delivered within orders.events.redeliver-within that no consumer recorded; returns how many. */
    @Transactional
    int redeliverUnconsumed() {
        Instant now = Instant.now();
        int queued = db.createNativeQuery(REDELIVER_UNCONSUMED).setParameter("kind", OrderEvents.KIND)
                .setParameter("since", now.minus(redeliverWithin)).setParameter("now", now).executeUpdate();
        if (queued > 0) {
            outbox.written(OrderEvents.KIND, now);
        }
        return queued;
    }
}
