package io.orderflow.outbox;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.shared.downstream.Backoff;

/**
 * The transactional outbox: messages are written in the transaction of the change that calls for
 * them and delivered after commit, at least once, with persisted exponential backoff and jitter,
 * until they succeed or are dead-lettered. Several instances may relay at once: a relay takes due
 * messages with FOR UPDATE SKIP LOCKED under a lease id, and right before each attempt renews that
 * message's lease, only while the row still carries its lease id. A relay that is slow to reach a
 * message whose lease lapsed and was taken over skips it, and one whose attempt outlasted its lease
 * cannot record the outcome; so no two relays attempt a message at once as long as one attempt
 * takes less than the lease. A relay that died leaves its messages to others when the lease ends.
 */
@ApplicationScoped
public class Outbox {

    /** Messages one relay run took, under one lease id and length. */
    record Lease(UUID id, Duration length, List<Long> messageIds) {
    }

    enum Outcome {
        DELIVERED, RETRY, DEAD,
        /** Another relay took the message over before this one came to it: not attempted. */
        TAKEN_OVER,
        /** Attempted, but the lease ran out meanwhile and another relay took the message: the outcome is that relay's to record. */
        LEASE_LOST
    }

    private static final Logger LOG = Logger.getLogger(Outbox.class);

    private static final String ENQUEUE = """
            INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at)
            VALUES (:kind, :orderId, :key, :payload, 'PENDING', 0, :now, :now)
            ON CONFLICT (idempotency_key) DO NOTHING""";
    private static final String TAKE_DUE = """
            UPDATE outbox SET lease_id = :leaseId, next_attempt_at = :leaseUntil WHERE id IN (
                SELECT id FROM outbox WHERE status = 'PENDING' AND next_attempt_at <= :now
                ORDER BY next_attempt_at LIMIT :batch FOR UPDATE SKIP LOCKED)
            RETURNING id""";
    private static final String TAKE_BY_KEY = """
            UPDATE outbox SET lease_id = :leaseId, next_attempt_at = :leaseUntil WHERE id IN (
                SELECT id FROM outbox WHERE status = 'PENDING' AND next_attempt_at <= :now AND idempotency_key = :key
                FOR UPDATE SKIP LOCKED)
            RETURNING id""";
    // A lapsed lease may still be renewed while no other relay has taken the message: its id is still on the row.
    private static final String RENEW_LEASE = """
            UPDATE outbox SET next_attempt_at = :leaseUntil WHERE id = :id AND lease_id = :leaseId AND status = 'PENDING'
            RETURNING *""";
    private static final String RECORD_DELIVERY = """
            UPDATE outbox SET status = 'DELIVERED', attempts = attempts + 1, delivered_at = :now,
                last_error_code = NULL, last_error_message = NULL, lease_id = NULL
            WHERE id = :id AND lease_id = :leaseId AND status = 'PENDING'""";
    private static final String RECORD_FAILURE = """
            UPDATE outbox SET status = :status, attempts = :attempts, next_attempt_at = :nextAttemptAt,
                last_error_code = :errorCode, last_error_message = :errorMessage, lease_id = NULL
            WHERE id = :id AND lease_id = :leaseId AND status = 'PENDING'""";
    private static final String RETRY_DEAD_LETTER = """
            UPDATE outbox SET status = 'PENDING', attempts = 0, next_attempt_at = :now WHERE id = :id AND status = 'DEAD'""";

    private final EntityManager db;
    private final OutboxConfig config;
    private final Instance<OutboxHandler> handlers;
    private final ObjectMapper json;
    private final MeterRegistry metrics;
    private final AtomicLong dead;

    public Outbox(EntityManager db, OutboxConfig config, Instance<OutboxHandler> handlers, ObjectMapper json, MeterRegistry metrics) {
        this.db = db;
        this.config = config;
        this.handlers = handlers;
        this.json = json;
        this.metrics = metrics;
        this.dead = metrics.gauge("orders.outbox.dead", new AtomicLong());
    }

    /** Records a message in the caller's transaction; a second message with the same key is ignored. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void enqueue(String kind, UUID orderId, String idempotencyKey, Object payload) {
        Instant now = Instant.now();
        db.createNativeQuery(ENQUEUE)
                .setParameter("kind", kind).setParameter("orderId", orderId).setParameter("key", idempotencyKey)
                .setParameter("payload", write(payload)).setParameter("now", now)
                .executeUpdate();
    }

    /** Delivers the due messages once; returns how many it took. */
    public int relay() {
        Lease lease = takeDue(config.lease());
        attemptAll(lease);
        dead.set(deadCount());
        return lease.messageIds().size();
    }

    /** Tries one message at once, e.g. a refund within the request that called for it; the relay retries it if this fails. */
    public void deliverNow(String idempotencyKey) {
        attemptAll(takeByKey(idempotencyKey, config.lease()));
    }

    /** Puts a dead letter back in line, with fresh attempts. */
    @Transactional
    public boolean retry(long id) {
        return db.createNativeQuery(RETRY_DEAD_LETTER).setParameter("now", Instant.now()).setParameter("id", id).executeUpdate() == 1;
    }

    @Transactional
    public List<OutboxMessage> deadLetters(int limit) {
        return OutboxMessage.<OutboxMessage>find("status", OutboxMessage.Status.DEAD).page(0, limit).list();
    }

    /** Claims up to a batch of due messages for this relay. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Lease takeDue(Duration length) {
        return take(db.createNativeQuery(TAKE_DUE).setParameter("batch", config.batchSize()), length);
    }

    /** Claims the message with this key if it is due. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Lease takeByKey(String idempotencyKey, Duration length) {
        return take(db.createNativeQuery(TAKE_BY_KEY).setParameter("key", idempotencyKey), length);
    }

    private Lease take(Query query, Duration length) {
        UUID leaseId = UUID.randomUUID();
        Instant now = Instant.now();
        @SuppressWarnings("unchecked")
        List<Number> ids = query.setParameter("leaseId", leaseId).setParameter("leaseUntil", now.plus(length))
                .setParameter("now", now).getResultList();
        // In the order they were written: a relay publishes an order's events as they happened.
        return new Lease(leaseId, length, ids.stream().map(Number::longValue).sorted().toList());
    }

    private void attemptAll(Lease lease) {
        lease.messageIds().forEach(id -> attempt(id, lease));
    }

    /** One attempt at a message, under a lease renewed for it first: the whole lease covers this attempt. */
    Outcome attempt(long id, Lease lease) {
        Optional<OutboxMessage> held = renew(id, lease);
        if (held.isEmpty()) {
            LOG.debugf("Outbox message %d was taken over by another relay before this one came to it", id);
            return Outcome.TAKEN_OVER;
        }
        OutboxMessage message = held.get();
        Outcome outcome;
        try {
            handler(message.kind).deliver(message);
            outcome = delivered(id, lease);
        } catch (RuntimeException e) {
            DeliveryError error = DeliveryError.of(e);
            outcome = failed(message, lease, error);
            // Staff see the error's code and message; the exception itself, with a stack trace when it is unexplained, is only here.
            LOG.warnf(error == DeliveryError.UNEXPLAINED ? e : null, "Outbox message %s (%s) failed%s: %s",
                    message.idempotencyKey, message.kind, outcome == Outcome.DEAD ? " for good" : "", e.toString());
        }
        if (outcome == Outcome.LEASE_LOST) {
            LOG.warnf("Outbox message %s (%s) was attempted past its lease of %s and taken over meanwhile; raise orders.outbox.lease",
                    message.idempotencyKey, message.kind, lease.length());
        }
        metrics.counter("orders.outbox.deliveries", "kind", message.kind, "outcome", outcome.name().toLowerCase(Locale.ROOT).replace('_', '-')).increment();
        return outcome;
    }

    /** The message, with its lease renewed from now, if this lease still holds it. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Optional<OutboxMessage> renew(long id, Lease lease) {
        @SuppressWarnings("unchecked")
        List<OutboxMessage> held = db.createNativeQuery(RENEW_LEASE, OutboxMessage.class)
                .setParameter("leaseUntil", Instant.now().plus(lease.length())).setParameter("id", id).setParameter("leaseId", lease.id())
                .getResultList();
        return held.stream().findFirst();
    }

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Outcome delivered(long id, Lease lease) {
        int recorded = db.createNativeQuery(RECORD_DELIVERY)
                .setParameter("now", Instant.now()).setParameter("id", id).setParameter("leaseId", lease.id()).executeUpdate();
        return recorded == 1 ? Outcome.DELIVERED : Outcome.LEASE_LOST;
    }

    /** Counts the failed attempt and schedules the next one, or dead-letters the message. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Outcome failed(OutboxMessage message, Lease lease, DeliveryError error) {
        // The lease keeps every other writer off the row, so the attempts read with it are still current.
        int attempts = message.attempts + 1;
        boolean lastAttempt = attempts >= config.maxAttempts();
        Instant now = Instant.now();
        int recorded = db.createNativeQuery(RECORD_FAILURE)
                .setParameter("status", (lastAttempt ? OutboxMessage.Status.DEAD : OutboxMessage.Status.PENDING).name())
                .setParameter("attempts", attempts).setParameter("nextAttemptAt", lastAttempt ? now : now.plus(backoff(attempts)))
                .setParameter("errorCode", error.code()).setParameter("errorMessage", error.message())
                .setParameter("id", message.id).setParameter("leaseId", lease.id())
                .executeUpdate();
        if (recorded == 0) {
            return Outcome.LEASE_LOST;
        }
        return lastAttempt ? Outcome.DEAD : Outcome.RETRY;
    }

    /** base * 2^(attempts-1), capped, with equal jitter: between half and all of it. */
    Duration backoff(int attempts) {
        return Duration.ofMillis(Backoff.equalJitter(config.baseDelay().toMillis(), config.maxDelay().toMillis(), attempts - 1));
    }

    private OutboxHandler handler(String kind) {
        return handlers.stream().filter(handler -> handler.kind().equals(kind)).findFirst()
                .orElseThrow(() -> new IllegalStateException("No handler for outbox messages of kind " + kind));
    }

    @Transactional
    long deadCount() {
        return OutboxMessage.count("status", OutboxMessage.Status.DEAD);
    }

    private String write(Object payload) {
        try {
            return json.writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An outbox payload always serialises", e);
        }
    }
}
