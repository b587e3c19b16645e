package io.orderflow.outbox;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.tracing.TraceParents;

/**
 * Writes outbox messages in the transaction of the change that calls for them, to be delivered after
 * commit (see {@link OutboxDelivery}); the relays learn of each one when its transaction commits.
 */
@ApplicationScoped
public class OutboxWriter {

    // A key that was delivered already is not queued again, like one that is still queued. The look is a
    // scalar subquery, probed through the key's index row by row: written as NOT EXISTS, PostgreSQL may plan
    // a hash anti-join that reads the whole delivered table on every insert, and a cached generic plan made
    // while the table was young kept doing so as it grew (seen as thousands of sequential scans under load).
    private static final String ENQUEUE = """
            INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at, trace_parent)
            SELECT :kind, m.order_id, m.key, m.payload, 'PENDING', 0, :now, :now, NULLIF(:traceParent, '')
            FROM unnest(CAST(:orderIds AS uuid[]), CAST(:keys AS varchar[]), CAST(:payloads AS text[])) AS m (order_id, key, payload)
            WHERE (SELECT 1 FROM outbox_delivered d WHERE d.idempotency_key = m.key LIMIT 1) IS NULL
            ON CONFLICT (idempotency_key) DO NOTHING""";

    private final EntityManager db;
    private final OutboxHandlers handlers;
    private final ObjectMapper json;
    private final Event<MessageQueued> queued;

    OutboxWriter(EntityManager db, OutboxHandlers handlers, ObjectMapper json, Event<MessageQueued> queued) {
        this.db = db;
        this.handlers = handlers;
        this.json = json;
        this.queued = queued;
    }

    /** A message to record: for an order, under its idempotency key. */
    public record Message(UUID orderId, String idempotencyKey, Object payload) {
    }

    /** Records a message in the caller's transaction; a second message with the same key is ignored. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void enqueue(String kind, UUID orderId, String idempotencyKey, Object payload) {
        enqueueAll(kind, List.of(new Message(orderId, idempotencyKey, payload)));
    }

    /** Records messages of one kind in the caller's transaction, in one statement; keys already used are ignored. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void enqueueAll(String kind, List<Message> messages) {
        Instant now = Instant.now();
        int written = db.createNativeQuery(ENQUEUE).setParameter("kind", kind)
                .setParameter("orderIds", messages.stream().map(message -> message.orderId().toString()).toArray(String[]::new))
                .setParameter("keys", messages.stream().map(Message::idempotencyKey).toArray(String[]::new))
                .setParameter("payloads", messages.stream().map(message -> payloadOf(message.payload())).toArray(String[]::new))
                .setParameter("now", now)
                .setParameter("traceParent", traceParent())
                .executeUpdate();
        if (written > 0) {
            written(kind, now);
        }
    }

    /**
     * The trace context a message written now carries, for a statement that writes the message beside other
     * rows: the current span's traceparent, or an empty string (stored as NULL) when no trace is recorded.
     */
    public String traceParent() {
        String traceParent = TraceParents.current();
        return traceParent == null ? "" : traceParent;
    }

    /** A message's payload as the outbox stores it, for a statement that writes the message beside other rows. */
    public String payloadOf(Object payload) {
        try {
            return json.writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An outbox payload always serialises", e);
        }
    }

    /** The caller's transaction wrote a message of this kind, due at this time, with its own statement: relays learn of it on commit. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void written(String kind, Instant due) {
        queued.fire(new MessageQueued(handlers.laneOf(kind), due));
    }
}
