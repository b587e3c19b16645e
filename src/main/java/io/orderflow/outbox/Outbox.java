package io.orderflow.outbox;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.shared.downstream.Backoff;

/**
 * The transactional outbox: messages are written in the transaction of the change that calls for
 * them and delivered after commit, at least once, with persisted exponential backoff and jitter,
 * until they succeed or are dead-lettered. Several instances may relay at once: a message is taken
 * with FOR UPDATE SKIP LOCKED and a lease, so each attempt belongs to one relay.
 */
@ApplicationScoped
public class Outbox {

    private static final Logger LOG = Logger.getLogger(Outbox.class);

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
        db.createNativeQuery("""
                INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at)
                VALUES (:kind, :orderId, :key, :payload, 'PENDING', 0, :now, :now)
                ON CONFLICT (idempotency_key) DO NOTHING""")
                .setParameter("kind", kind).setParameter("orderId", orderId).setParameter("key", idempotencyKey)
                .setParameter("payload", write(payload)).setParameter("now", now)
                .executeUpdate();
    }

    /** Delivers the due messages once; returns how many it attempted. */
    public int relay() {
        List<Long> due = take("status = 'PENDING' AND next_attempt_at <= :now", null);
        due.forEach(this::attempt);
        dead.set(deadCount());
        return due.size();
    }

    /** Tries one message at once, e.g. a refund within the request that called for it; the relay retries it if this fails. */
    public void deliverNow(String idempotencyKey) {
        take("status = 'PENDING' AND next_attempt_at <= :now AND idempotency_key = :key", idempotencyKey).forEach(this::attempt);
    }

    /** Puts a dead letter back in line, with fresh attempts. */
    @Transactional
    public boolean retry(long id) {
        return db.createNativeQuery("UPDATE outbox SET status = 'PENDING', attempts = 0, next_attempt_at = :now WHERE id = :id AND status = 'DEAD'")
                .setParameter("now", Instant.now()).setParameter("id", id).executeUpdate() == 1;
    }

    @Transactional
    public List<OutboxMessage> deadLetters(int limit) {
        return OutboxMessage.<OutboxMessage>find("status", OutboxMessage.Status.DEAD).page(0, limit).list();
    }

    /** Claims due messages for this relay: each for the lease, so no other relay attempts it meanwhile. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    List<Long> take(String condition, String key) {
        Instant now = Instant.now();
        var query = db.createNativeQuery("""
                UPDATE outbox SET next_attempt_at = :leaseUntil WHERE id IN (
                    SELECT id FROM outbox WHERE %s ORDER BY next_attempt_at LIMIT :batch FOR UPDATE SKIP LOCKED)
                RETURNING id""".formatted(condition))
                .setParameter("leaseUntil", now.plus(config.lease())).setParameter("now", now).setParameter("batch", config.batchSize());
        if (key != null) {
            query.setParameter("key", key);
        }
        @SuppressWarnings("unchecked")
        List<Number> ids = query.getResultList();
        // In the order they were written: a relay publishes an order's events as they happened.
        return ids.stream().map(Number::longValue).sorted().toList();
    }

    private void attempt(long id) {
        OutboxMessage message = load(id);
        try {
            handler(message.kind).deliver(message);
            delivered(id);
            metrics.counter("orders.outbox.deliveries", "kind", message.kind, "outcome", "delivered").increment();
        } catch (RuntimeException e) {
            DeliveryError error = DeliveryError.of(e);
            boolean dead = failed(id, error);
            metrics.counter("orders.outbox.deliveries", "kind", message.kind, "outcome", dead ? "dead" : "retry").increment();
            // Staff see the error's code and message; the exception itself, with a stack trace when it is unexplained, is only here.
            LOG.warnf(error == DeliveryError.UNEXPLAINED ? e : null, "Outbox message %s (%s) failed%s: %s",
                    message.idempotencyKey, message.kind, dead ? " for good" : "", e.toString());
        }
    }

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    OutboxMessage load(long id) {
        OutboxMessage message = OutboxMessage.findById(id);
        db.detach(message);
        return message;
    }

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    void delivered(long id) {
        db.createNativeQuery("""
                UPDATE outbox SET status = 'DELIVERED', attempts = attempts + 1, delivered_at = :now,
                    last_error_code = NULL, last_error_message = NULL
                WHERE id = :id""")
                .setParameter("now", Instant.now()).setParameter("id", id).executeUpdate();
    }

    /** Counts the failed attempt and schedules the next one, or dead-letters the message; true when dead. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    boolean failed(long id, DeliveryError error) {
        OutboxMessage message = OutboxMessage.findById(id);
        message.attempts++;
        message.lastErrorCode = error.code();
        message.lastErrorMessage = error.message();
        if (message.attempts >= config.maxAttempts()) {
            message.status = OutboxMessage.Status.DEAD;
            return true;
        }
        message.nextAttemptAt = Instant.now().plus(backoff(message.attempts));
        return false;
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
