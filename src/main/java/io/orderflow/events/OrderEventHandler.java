package io.orderflow.events;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
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
import io.orderflow.shared.metrics.Counters;
import io.orderflow.shared.tracing.TraceParents;
import io.quarkus.runtime.Startup;

/**
 * What the consumer of order events does with what it read, whichever transport brought it (a Redis
 * Stream, a Kafka topic): tells each event's customer (a notification row), all of one read in one
 * transaction. The event ids go into processed_messages in the same statement as the notifications, so
 * an event delivered twice notifies once. An entry that can never be read is dead-lettered (logged and
 * counted), so that it does not come back forever and hold up the ones behind it. If the transaction
 * fails, the caller acknowledges nothing and reads the same entries again.
 */
@Startup
@ApplicationScoped
class OrderEventHandler {

    /** The consumer group of both transports, and the consumer named in processed_messages. */
    static final String GROUP = "notifications";
    static final String PROCESS_SPAN = "order-event process";

    private static final Logger LOG = Logger.getLogger(OrderEventHandler.class);
    /** How much of an unreadable entry the log shows. */
    private static final int EXCERPT_LENGTH = 200;

    // Events already processed are dropped by the insert into processed_messages; only the new ones notify, in the order read.
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

    /**
     * One entry as a transport delivered it: the transport's name (the spans' messaging.system), where it was
     * read from and its id there, the event's JSON, the traceparent it carries (or null), and the whole entry
     * as text for the log should it be unreadable.
     */
    record Received(String system, String source, String id, String eventJson, String traceParent, String entry) {
    }

    private final EntityManager db;
    private final OutboxWriter outbox;
    private final ObjectMapper json;
    private final Tracer tracer;
    private final Counter deadLetters;
    private final Duration redeliverWithin;

    OrderEventHandler(EntityManager db, OutboxWriter outbox, ObjectMapper json, Tracer tracer, MeterRegistry metrics, EventsConfig config) {
        this.db = db;
        this.outbox = outbox;
        this.redeliverWithin = config.redeliverWithin();
        this.json = json;
        this.tracer = tracer;
        this.deadLetters = Counters.single(metrics, "orders.events.dead-letters", "Order-stream entries the consumer could never read: logged and skipped");
    }

    /** Handles the entries of one read; returns once they may be acknowledged, or throws and nothing may be. */
    void handle(List<Received> entries) {
        List<StreamedOrderEvent> readable = new ArrayList<>();
        Map<Received, String> unreadable = new LinkedHashMap<>();
        List<Span> spans = new ArrayList<>();
        for (Received entry : entries) {
            try {
                StreamedOrderEvent event = StreamedOrderEvent.read(json, entry.eventJson());
                readable.add(event);
                processSpan(entry, event).ifPresent(spans::add);
            } catch (UnreadableEventException e) {
                unreadable.put(entry, e.getMessage());
            }
        }
        try {
            if (!readable.isEmpty()) {
                notifyCustomers(readable);
            }
            unreadable.forEach(this::deadLetter);
        } catch (RuntimeException e) {
            spans.forEach(span -> span.recordException(e).setStatus(StatusCode.ERROR));
            throw e;
        } finally {
            spans.forEach(Span::end);
        }
    }

    /**
     * The span of an event's handling, continuing the trace of the entry's traceparent; none for an entry
     * without one, or whose trace is not recorded. The whole read is one transaction, so the span covers it.
     */
    private Optional<Span> processSpan(Received entry, StreamedOrderEvent event) {
        if (entry.traceParent() == null) {
            return Optional.empty();
        }
        Span span = tracer.spanBuilder(PROCESS_SPAN).setSpanKind(SpanKind.CONSUMER).setParent(TraceParents.parent(entry.traceParent()))
                .startSpan();
        if (!span.isRecording()) {
            return Optional.empty();
        }
        span.setAttribute("messaging.system", entry.system()).setAttribute("messaging.operation.type", "process")
                .setAttribute("messaging.destination.name", entry.source()).setAttribute("messaging.consumer.group.name", GROUP)
                .setAttribute("messaging.message.id", entry.id()).setAttribute("orders.order_id", event.orderId().toString());
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

    /**
     * Queues again the order events delivered within orders.events.redeliver-within that no consumer recorded
     * (the transport lost them, or they were left unread in a transport given up); returns how many.
     */
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

    private void deadLetter(Received entry, String reason) {
        deadLetters.increment();
        String excerpt = entry.entry().length() <= EXCERPT_LENGTH ? entry.entry()
                : entry.entry().substring(0, EXCERPT_LENGTH) + "... (" + entry.entry().length() + " characters)";
        LOG.warnf("Dead-lettered order event entry %s of %s, since %s: %s", entry.id(), entry.source(), reason, excerpt);
    }
}
