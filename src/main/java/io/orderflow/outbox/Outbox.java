package io.orderflow.outbox;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Instance;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.transaction.Transactional;

import org.hibernate.query.NativeQuery;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.shared.downstream.Backoff;
import io.quarkus.runtime.Startup;

/**
 * The transactional outbox: messages are written in the transaction of the change that calls for
 * them and delivered after commit, at least once, with persisted exponential backoff and jitter,
 * until they succeed; only the kinds whose handler may give up (see {@link OutboxHandler#mayGiveUp()})
 * are dead-lettered after {@code orders.outbox.max-attempts}. A delivered message moves to
 * {@code outbox_delivered} in the statement that records it, so the outbox holds only work still to
 * do and dead letters.
 * Messages travel in two lanes by what their handler can do (see {@link Lane}). Several instances may
 * relay at once: a relay takes a batch of one lane's due messages with FOR UPDATE SKIP LOCKED under
 * a lease id. Messages whose handler delivers in batches go out together and are recorded in one
 * statement. Any other message has its lease renewed right before its attempt, only
 * while the row still carries the lease id: a relay that is slow to reach a message whose lease lapsed
 * and was taken over skips it, and one whose attempt outlasted its lease cannot record the outcome; so
 * no two relays attempt a message at once as long as one attempt takes less than the lease. A relay
 * that died leaves its messages to others when the lease ends.
 */
@ApplicationScoped
@Startup // its gauges are there from the start
public class Outbox {

    /**
     * Messages relayed apart, each lane by its own relay loop, so that events never wait behind a slow
     * provider: BATCHED, the kinds whose handler delivers many in one quick call, as soon as they are
     * committed; SINGLE, the others, one provider call at a time.
     */
    enum Lane {
        BATCHED, SINGLE
    }

    /** Messages one relay run took, under one lease id and length, in the order they were written. */
    record Lease(UUID id, Duration length, List<OutboxMessage> messages) {
    }

    /** What a claim took, and when the last of it had fallen due (null when it took nothing). */
    record Claim(Lease lease, Instant lastDue) {
    }

    /** Undelivered messages of one kind: how many, and when the oldest was written (null when none). */
    public record Pending(long count, Instant oldest) {

        static final Pending NONE = new Pending(0, null);

        /** How long the oldest has waited, in seconds; 0 when nothing waits. */
        public double oldestAgeSeconds(Instant now) {
            return oldest == null ? 0 : Math.max(0, Duration.between(oldest, now).toMillis() / 1000.0);
        }
    }

    /** Pending messages by kind and the number of dead letters, as counted at one moment. */
    record Backlog(Map<String, Pending> pending, long dead, Instant countedAt) {
    }

    enum Outcome {
        DELIVERED, RETRY, DEAD,
        /** Another relay took the message over before this one came to it: not attempted. */
        TAKEN_OVER,
        /** Attempted, but the lease ran out meanwhile and another relay took the message: the outcome is that relay's to record. */
        LEASE_LOST
    }

    private static final Logger LOG = Logger.getLogger(Outbox.class);
    /** Gauges read the backlog at most this often, so a scrape of every gauge costs one query. */
    private static final Duration BACKLOG_MAX_AGE = Duration.ofSeconds(1);

    // A key that was delivered already is not queued again, like one that is still queued.
    private static final String ENQUEUE = """
            INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, attempts, next_attempt_at, created_at)
            SELECT :kind, m.order_id, m.key, m.payload, 'PENDING', 0, :now, :now
            FROM unnest(CAST(:orderIds AS uuid[]), CAST(:keys AS varchar[]), CAST(:payloads AS text[])) AS m (order_id, key, payload)
            WHERE NOT EXISTS (SELECT 1 FROM outbox_delivered WHERE idempotency_key = m.key)
            ON CONFLICT (idempotency_key) DO NOTHING""";
    // Each claim returns the rows it took and when each had fallen due (the lease overwrites that).
    private static final String TAKE_DUE = """
            UPDATE outbox o SET lease_id = :leaseId, next_attempt_at = :leaseUntil
            FROM (SELECT id, next_attempt_at FROM outbox
                  WHERE status = 'PENDING' AND kind IN (:kinds) AND next_attempt_at BETWEEN :from AND :now
                  ORDER BY next_attempt_at LIMIT :batch FOR UPDATE SKIP LOCKED) due
            WHERE o.id = due.id
            RETURNING o.*, due.next_attempt_at AS due_at""";
    private static final String TAKE_BY_KEY = """
            UPDATE outbox o SET lease_id = :leaseId, next_attempt_at = :leaseUntil
            FROM (SELECT id, next_attempt_at FROM outbox WHERE status = 'PENDING' AND next_attempt_at <= :now AND idempotency_key = :key
                  FOR UPDATE SKIP LOCKED) due
            WHERE o.id = due.id
            RETURNING o.*, due.next_attempt_at AS due_at""";
    // A lapsed lease may still be renewed while no other relay has taken the message: its id is still on the row.
    private static final String RENEW_LEASE = """
            UPDATE outbox SET next_attempt_at = :leaseUntil WHERE id = :id AND lease_id = :leaseId AND status = 'PENDING'
            RETURNING *""";
    private static final String RECORD_DELIVERIES = """
            WITH done AS (
                DELETE FROM outbox WHERE id IN (:ids) AND lease_id = :leaseId AND status = 'PENDING'
                RETURNING id, kind, order_id, idempotency_key, payload, attempts, created_at)
            INSERT INTO outbox_delivered (id, kind, order_id, idempotency_key, payload, attempts, created_at, delivered_at)
            SELECT id, kind, order_id, idempotency_key, payload, attempts + 1, created_at, :now FROM done""";
    private static final String RECORD_FAILURE = """
            UPDATE outbox SET status = :status, attempts = :attempts, next_attempt_at = :nextAttemptAt,
                last_error_code = :errorCode, last_error_message = :errorMessage, lease_id = NULL
            WHERE id = :id AND lease_id = :leaseId AND status = 'PENDING'""";
    private static final String RETRY_DEAD_LETTER = """
            UPDATE outbox SET status = 'PENDING', attempts = 0, next_attempt_at = :now WHERE id = :id AND status = 'DEAD'
            RETURNING kind""";
    // Pending rows are counted from where the relays search (see DueScan), each arm on its partial index.
    private static final String COUNT_BACKLOG = """
            SELECT kind, status, count(*) AS messages, min(created_at) AS oldest FROM outbox
            WHERE status = 'PENDING' AND kind IN (:kinds) AND next_attempt_at >= :from GROUP BY kind, status
            UNION ALL
            SELECT kind, status, count(*), NULL FROM outbox WHERE status = 'DEAD' GROUP BY kind, status""";
    private static final String COUNT_WRITTEN_BEFORE = """
            SELECT count(*) FROM outbox
            WHERE status = 'PENDING' AND kind = :kind AND next_attempt_at >= :from AND created_at < :writtenBefore""";

    private final EntityManager db;
    private final OutboxConfig config;
    private final Map<String, OutboxHandler> handlers;
    private final Map<Lane, List<String>> kindsByLane;
    private final Map<Lane, DueScan> dueScans = new EnumMap<>(Map.of(Lane.BATCHED, new DueScan(), Lane.SINGLE, new DueScan()));
    private final ObjectMapper json;
    private final MeterRegistry metrics;
    private final Event<MessageQueued> queued;
    private final List<Gauge> gauges = new ArrayList<>();
    private volatile Backlog backlog;

    public Outbox(EntityManager db, OutboxConfig config, Instance<OutboxHandler> handlers, ObjectMapper json, MeterRegistry metrics,
            Event<MessageQueued> queued) {
        this.db = db;
        this.config = config;
        this.handlers = handlers.stream().collect(Collectors.toMap(OutboxHandler::kind, handler -> handler));
        this.kindsByLane = this.handlers.keySet().stream().collect(Collectors.groupingBy(this::laneOf, () -> new EnumMap<>(Lane.class),
                Collectors.toList()));
        this.json = json;
        this.metrics = metrics;
        this.queued = queued;
        for (String kind : this.handlers.keySet()) {
            gauges.add(Gauge.builder("orders.outbox.pending", this, outbox -> outbox.pending(kind).count()).tag("kind", kind)
                    .description("Outbox messages not yet delivered").strongReference(true).register(metrics));
        }
        // Only kinds that may give up (shipments) end here; each one is also counted in orders.outbox.deliveries{kind, outcome="dead"}.
        gauges.add(Gauge.builder("orders.outbox.dead", this, outbox -> outbox.backlog().dead())
                .description("Outbox messages that gave up and wait for staff to retry them").strongReference(true).register(metrics));
    }

    /** The registry may outlive this bean (tests restart the app in one JVM): its gauges must not call it then. */
    @PreDestroy
    void removeGauges() {
        gauges.forEach(metrics::remove);
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
                .setParameter("payloads", messages.stream().map(message -> write(message.payload())).toArray(String[]::new))
                .setParameter("now", now)
                .executeUpdate();
        if (written > 0) {
            queued.fire(new MessageQueued(laneOf(kind), now));
        }
    }

    /** A message's payload as the outbox stores it, for a statement that writes the message beside other rows. */
    public String payloadOf(Object payload) {
        return write(payload);
    }

    /** The caller's transaction wrote a message of this kind, due at this time, with its own statement: relays learn of it on commit. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void written(String kind, Instant due) {
        queued.fire(new MessageQueued(laneOf(kind), due));
    }

    /** Delivers one batch of due messages of each lane; returns how many it took. */
    public int relay() {
        return kindsByLane.keySet().stream().mapToInt(this::relay).sum();
    }

    /** Delivers one batch of this lane's due messages; returns how many it took. */
    int relay(Lane lane) {
        List<String> kinds = kindsByLane.get(lane);
        if (kinds == null) {
            return 0;
        }
        DueScan dueScan = dueScans.get(lane);
        Instant now = Instant.now();
        Instant from = dueScan.start(now);
        Claim claim = takeDue(kinds, from, now, config.lease());
        List<OutboxMessage> taken = claim.lease().messages();
        // A full batch may have left more due behind its last message; anything less took all that was due.
        dueScan.searched(taken.size() == config.batchSize() ? claim.lastDue() : now, now);
        deliver(claim.lease());
        return taken.size();
    }

    /** Tries one message at once, e.g. a refund within the request that called for it; the relay retries it if this fails. */
    public void deliverNow(String idempotencyKey) {
        Lease lease = takeByKey(idempotencyKey, config.lease());
        lease.messages().forEach(message -> attempt(message.id, lease));
    }

    /** Puts a dead letter back in line, with fresh attempts. */
    @Transactional
    public boolean retry(long id) {
        Instant now = Instant.now();
        @SuppressWarnings("unchecked")
        List<String> retried = db.createNativeQuery(RETRY_DEAD_LETTER).setParameter("now", now).setParameter("id", id).getResultList();
        retried.forEach(kind -> queued.fire(new MessageQueued(laneOf(kind), now)));
        return !retried.isEmpty();
    }

    @Transactional
    public List<OutboxMessage> deadLetters(int limit) {
        return OutboxMessage.<OutboxMessage>find("status", OutboxMessage.Status.DEAD).page(0, limit).list();
    }

    /** Messages of this kind not yet delivered, as counted at most a second ago. */
    public Pending pending(String kind) {
        return backlog().pending().getOrDefault(kind, Pending.NONE);
    }

    /** How many messages of this kind not yet delivered were written before this time; counted from where the relays search, as the backlog. */
    @Transactional
    public long pendingWrittenBefore(String kind, Instant writtenBefore) {
        return ((Number) db.createNativeQuery(COUNT_WRITTEN_BEFORE).setParameter("kind", kind)
                .setParameter("from", dueScans.get(laneOf(kind)).current()).setParameter("writtenBefore", writtenBefore)
                .getSingleResult()).longValue();
    }

    /** A message of this lane, due at this time, was committed: the lane's next search for due messages starts no later. */
    void committed(Lane lane, Instant due) {
        dueScans.get(lane).include(due);
    }

    /** Claims up to a batch of the messages of these kinds due between these times for this relay. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Claim takeDue(List<String> kinds, Instant from, Instant now, Duration length) {
        return take(db.createNativeQuery(TAKE_DUE).setParameter("kinds", kinds).setParameter("from", from)
                .setParameter("batch", config.batchSize()), now, length);
    }

    /** Claims the message with this key if it is due. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Lease takeByKey(String idempotencyKey, Duration length) {
        return take(db.createNativeQuery(TAKE_BY_KEY).setParameter("key", idempotencyKey), Instant.now(), length).lease();
    }

    private Claim take(Query query, Instant now, Duration length) {
        UUID leaseId = UUID.randomUUID();
        @SuppressWarnings("unchecked")
        List<Object[]> rows = query.setParameter("leaseId", leaseId).setParameter("leaseUntil", now.plus(length)).setParameter("now", now)
                .unwrap(NativeQuery.class).addEntity("o", OutboxMessage.class).addScalar("due_at", Instant.class)
                .getResultList();
        // In the order they were written: a relay publishes an order's events as they happened.
        List<OutboxMessage> messages = rows.stream().map(row -> (OutboxMessage) row[0]).sorted(Comparator.comparing(message -> message.id))
                .toList();
        Instant lastDue = rows.stream().map(row -> (Instant) row[1]).max(Comparator.naturalOrder()).orElse(null);
        return new Claim(new Lease(leaseId, length, messages), lastDue);
    }

    /** Messages whose handler delivers in batches go first, together, since that is quick; then the others one by one. */
    private void deliver(Lease lease) {
        Map<OutboxHandler, List<OutboxMessage>> byHandler = lease.messages().stream()
                .collect(Collectors.groupingBy(message -> handler(message.kind), LinkedHashMap::new, Collectors.toList()));
        byHandler.forEach((handler, messages) -> {
            if (handler instanceof BatchOutboxHandler batchHandler) {
                deliverTogether(batchHandler, messages, lease);
            }
        });
        byHandler.forEach((handler, messages) -> {
            if (!(handler instanceof BatchOutboxHandler)) {
                messages.forEach(message -> attempt(message.id, lease));
            }
        });
    }

    /** One attempt at all these messages of one kind: recorded as delivered in one statement, or each as a failed attempt. */
    private void deliverTogether(BatchOutboxHandler handler, List<OutboxMessage> messages, Lease lease) {
        try {
            handler.deliverAll(messages);
        } catch (RuntimeException e) {
            DeliveryError error = DeliveryError.of(e);
            LOG.warnf(error == DeliveryError.UNEXPLAINED ? e : null, "%d outbox messages (%s) failed: %s", messages.size(), handler.kind(),
                    e.toString());
            messages.forEach(message -> count(message.kind, failed(message, lease, error), 1));
            return;
        }
        int recorded = delivered(messages.stream().map(message -> message.id).toList(), lease);
        count(handler.kind(), Outcome.DELIVERED, recorded);
        if (recorded < messages.size()) {
            LOG.warnf("%d outbox messages (%s) were delivered past their lease of %s and taken over meanwhile; raise orders.outbox.lease",
                    messages.size() - recorded, handler.kind(), lease.length());
            count(handler.kind(), Outcome.LEASE_LOST, messages.size() - recorded);
        }
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
            outcome = delivered(List.of(id), lease) == 1 ? Outcome.DELIVERED : Outcome.LEASE_LOST;
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
        count(message.kind, outcome, 1);
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

    /** Moves the messages this lease still holds to the delivered ones; returns how many it moved. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    int delivered(List<Long> ids, Lease lease) {
        return db.createNativeQuery(RECORD_DELIVERIES)
                .setParameter("ids", ids).setParameter("leaseId", lease.id()).setParameter("now", Instant.now()).executeUpdate();
    }

    /** Counts the failed attempt and schedules the next one, or dead-letters the message if its kind may give up. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Outcome failed(OutboxMessage message, Lease lease, DeliveryError error) {
        // The lease keeps every other writer off the row, so the attempts read with it are still current.
        int attempts = message.attempts + 1;
        boolean lastAttempt = handler(message.kind).mayGiveUp() && attempts >= config.maxAttempts();
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

    private Lane laneOf(String kind) {
        return handler(kind) instanceof BatchOutboxHandler ? Lane.BATCHED : Lane.SINGLE;
    }

    private OutboxHandler handler(String kind) {
        OutboxHandler handler = handlers.get(kind);
        if (handler == null) {
            throw new IllegalStateException("No handler for outbox messages of kind " + kind);
        }
        return handler;
    }

    private void count(String kind, Outcome outcome, int messages) {
        metrics.counter("orders.outbox.deliveries", "kind", kind, "outcome", outcome.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                .increment(messages);
    }

    private Backlog backlog() {
        Backlog counted = backlog;
        if (counted == null || counted.countedAt().plus(BACKLOG_MAX_AGE).isBefore(Instant.now())) {
            counted = countBacklog();
            backlog = counted;
        }
        return counted;
    }

    @Transactional
    Backlog countBacklog() {
        Instant now = Instant.now();
        @SuppressWarnings("unchecked")
        Instant from = dueScans.values().stream().map(DueScan::current).min(Comparator.naturalOrder()).orElseThrow();
        List<Object[]> rows = db.createNativeQuery(COUNT_BACKLOG).setParameter("kinds", List.copyOf(handlers.keySet())).setParameter("from", from)
                .unwrap(NativeQuery.class).addScalar("kind", String.class).addScalar("status", String.class)
                .addScalar("messages", Long.class).addScalar("oldest", Instant.class)
                .getResultList();
        Map<String, Pending> pending = new HashMap<>();
        long dead = 0;
        for (Object[] row : rows) {
            long count = (Long) row[2];
            if (OutboxMessage.Status.DEAD.name().equals(row[1])) {
                dead += count;
            } else {
                pending.put((String) row[0], new Pending(count, (Instant) row[3]));
            }
        }
        return new Backlog(pending, dead, now);
    }

    private String write(Object payload) {
        try {
            return json.writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An outbox payload always serialises", e);
        }
    }
}
