package io.orderflow.outbox;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.transaction.Transactional;

import org.hibernate.query.NativeQuery;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.orderflow.shared.WorkInProgress;
import io.orderflow.shared.downstream.Backoff;
import io.orderflow.shared.metrics.Counters;
import io.orderflow.shared.tracing.TraceParents;
import io.quarkus.runtime.Startup;

/**
 * Delivers the outbox's messages after their transaction committed, at least once, with persisted
 * exponential backoff and jitter, until they succeed; only the kinds whose handler may give up (see
 * {@link OutboxHandler#mayGiveUp()}) are dead-lettered after {@code orders.outbox.max-attempts}, and a
 * message its receiver refused for good ({@link MessageRefusedException}) leaves the line as REFUSED for
 * staff to settle. A delivered message moves to {@code outbox_delivered} in the statement that records
 * it, so the outbox holds only work still to do, dead letters and refused messages.
 * Messages travel in two lanes by what their handler can do (see {@link Lane}). Several instances may
 * relay at once: a relay takes a batch of one lane's due messages with FOR UPDATE SKIP LOCKED under
 * a lease id. Messages whose handler delivers in batches go out together and are recorded in one
 * statement. Any other message has its lease renewed right before its attempt, only
 * while the row still carries the lease id: a relay that is slow to reach a message whose lease lapsed
 * and was taken over skips it, and one whose attempt outlasted its lease cannot record the outcome; so
 * no two relays attempt a message at once as long as one attempt takes less than the lease. A relay
 * that died leaves its messages to others when the lease ends.
 * Each claim and each recorded outcome commits on its own ({@code REQUIRES_NEW}), also when this bean
 * calls it: ArC intercepts a bean's calls to its own methods unless they are private.
 */
@Startup
@ApplicationScoped
public class OutboxDelivery {

    /** Messages one relay run took, under one lease id and length, in the order they were written. */
    record Lease(UUID id, Duration length, List<OutboxMessage> messages) {
    }

    /** Where a message stands: PENDING, DEAD, REFUSED or DELIVERED. */
    public record Standing(UUID orderId, String idempotencyKey, String status) {
    }

    /** What a claim took, and when the last of it had fallen due (null when it took nothing). */
    record Claim(Lease lease, Instant lastDue) {
    }

    enum Outcome {
        DELIVERED, RETRY, DEAD,
        /** The receiver refused the message for good: it waits for staff. */
        REFUSED,
        /** Another relay took the message over before this one came to it: not attempted. */
        TAKEN_OVER,
        /** Attempted, but the lease ran out meanwhile and another relay took the message: the outcome is that relay's to record. */
        LEASE_LOST
    }

    private static final Logger LOG = Logger.getLogger(OutboxDelivery.class);
    /** The span of an attempt at a message delivered one by one (a refund, a shipment). */
    public static final String DELIVERY_SPAN = "outbox deliver";

    // Each claim returns the rows it took and when each had fallen due (the lease overwrites that). The rows to take
    // are chosen once, in a materialized CTE: as a subquery joined to the UPDATE, a nested loop (the plan for an outbox
    // whose statistics say it is nearly empty) scans it again for every row, and each scan skips the rows the UPDATE
    // has already changed and locks the next ones, so one claim took more than its batch.
    static final String TAKE_DUE = """
            WITH due AS MATERIALIZED (
                SELECT id, next_attempt_at FROM outbox
                WHERE status = 'PENDING' AND kind IN (:kinds) AND next_attempt_at BETWEEN :from AND :now
                ORDER BY next_attempt_at LIMIT :batch FOR UPDATE SKIP LOCKED)
            UPDATE outbox o SET lease_id = :leaseId, next_attempt_at = :leaseUntil
            FROM due WHERE o.id = due.id
            RETURNING o.*, due.next_attempt_at AS due_at""";
    private static final String TAKE_BY_KEYS = """
            WITH due AS MATERIALIZED (
                SELECT id, next_attempt_at FROM outbox WHERE status = 'PENDING' AND next_attempt_at <= :now AND idempotency_key IN (:keys)
                FOR UPDATE SKIP LOCKED)
            UPDATE outbox o SET lease_id = :leaseId, next_attempt_at = :leaseUntil
            FROM due WHERE o.id = due.id
            RETURNING o.*, due.next_attempt_at AS due_at""";
    // A lapsed lease may still be renewed while no other relay has taken the message: its id is still on the row.
    private static final String RENEW_LEASE = """
            UPDATE outbox SET next_attempt_at = :leaseUntil WHERE id = :id AND lease_id = :leaseId AND status = 'PENDING'
            RETURNING *""";
    private static final String RECORD_DELIVERIES = """
            WITH done AS (
                DELETE FROM outbox WHERE id IN (:ids) AND lease_id = :leaseId AND status = 'PENDING'
                RETURNING id, kind, order_id, idempotency_key, payload, attempts, created_at, trace_parent)
            INSERT INTO outbox_delivered (id, kind, order_id, idempotency_key, payload, attempts, created_at, delivered_at, trace_parent)
            SELECT id, kind, order_id, idempotency_key, payload, attempts + 1, created_at, :now, trace_parent FROM done""";
    private static final String RECORD_FAILURE = """
            UPDATE outbox SET status = :status, attempts = :attempts, next_attempt_at = :nextAttemptAt,
                last_error_code = :errorCode, last_error_message = :errorMessage, lease_id = NULL
            WHERE id = :id AND lease_id = :leaseId AND status = 'PENDING'""";
    // A stopping relay hands back what it took but did not attempt: due at once, for another instance.
    private static final String HAND_BACK = """
            UPDATE outbox SET lease_id = NULL, next_attempt_at = :now WHERE id IN (:ids) AND lease_id = :leaseId AND status = 'PENDING'""";
    private static final String RETRY_DEAD_LETTERS = """
            UPDATE outbox SET status = 'PENDING', attempts = 0, next_attempt_at = :now WHERE id IN (:ids) AND status = 'DEAD'
            RETURNING kind""";
    private static final String RETRY_REFUSED = """
            UPDATE outbox SET status = 'PENDING', attempts = 0, next_attempt_at = :now WHERE id = :id AND kind = :kind AND status = 'REFUSED'
            RETURNING kind""";
    // Staff settled a refused message outside the engine: it counts as delivered, and is not queued again.
    private static final String SETTLE_REFUSED = """
            WITH settled AS (
                DELETE FROM outbox WHERE id = :id AND kind = :kind AND status = 'REFUSED'
                RETURNING id, kind, order_id, idempotency_key, payload, attempts, created_at, trace_parent)
            INSERT INTO outbox_delivered (id, kind, order_id, idempotency_key, payload, attempts, created_at, delivered_at, trace_parent)
            SELECT id, kind, order_id, idempotency_key, payload, attempts, created_at, :now, trace_parent FROM settled""";
    // Two staff settling one message take turns: the second finds it no longer refused.
    private static final String REFUSED_FOR_UPDATE = """
            SELECT * FROM outbox WHERE id = :id AND kind = :kind AND status = 'REFUSED' FOR UPDATE""";
    private static final String STANDING = "SELECT order_id, idempotency_key, status FROM outbox_all WHERE id = :id AND kind = :kind";

    private final EntityManager db;
    private final OutboxConfig config;
    private final OutboxHandlers handlers;
    private final DueScans dueScans;
    private final OutboxWriter writer;
    /** orders_outbox_deliveries_total{kind,outcome}, for every kind with a handler and every outcome. */
    private final Map<String, Counters<Outcome>> deliveries = new LinkedHashMap<>();
    private final WorkInProgress work;
    private final Tracer tracer;

    OutboxDelivery(EntityManager db, OutboxConfig config, OutboxHandlers handlers, DueScans dueScans, OutboxWriter writer,
            MeterRegistry metrics, WorkInProgress work, Tracer tracer) {
        this.db = db;
        this.config = config;
        this.handlers = handlers;
        this.dueScans = dueScans;
        this.writer = writer;
        for (String kind : handlers.kinds()) {
            deliveries.put(kind, Counters.of(metrics, "orders.outbox.deliveries", "Attempts at outbox messages, by kind and outcome",
                    Tags.of("kind", kind), "outcome", Outcome.class));
        }
        this.work = work;
        this.tracer = tracer;
    }

    /** Delivers one batch of due messages of each lane; returns how many it took. */
    public int relay() {
        return Arrays.stream(Lane.values()).mapToInt(this::relay).sum();
    }

    /** Delivers one batch of this lane's due messages; returns how many it took. */
    int relay(Lane lane) {
        List<String> kinds = handlers.kinds(lane);
        if (kinds.isEmpty()) {
            return 0;
        }
        DueScan dueScan = dueScans.of(lane);
        Instant now = Instant.now();
        Instant from = dueScan.start(now);
        Claim claim = takeDue(kinds, from, now, config.lease());
        List<OutboxMessage> taken = claim.lease().messages();
        // A full batch may have left more due behind its last message; anything less took all that was due.
        dueScan.searched(taken.size() == config.batchSize() ? claim.lastDue() : now, now);
        deliver(claim.lease(), work::stopping);
        return taken.size();
    }

    /** Tries one message at once, e.g. a refund within the request that called for it; the relay retries it if this fails. */
    public void deliverNow(String idempotencyKey) {
        Lease lease = takeByKeys(List.of(idempotencyKey), config.lease());
        lease.messages().forEach(message -> attempt(message.id, lease));
    }

    /**
     * Puts the dead letters among these ids back in line, with fresh attempts; returns how many it put back: an id that is
     * not (or no longer) a dead letter is left as it is, so retrying twice retries once.
     */
    @Transactional
    public int retry(Collection<Long> ids) {
        return ids.isEmpty() ? 0 : backInLine(db.createNativeQuery(RETRY_DEAD_LETTERS).setParameter("ids", ids));
    }

    /** Puts a refused message of this kind back in line, with fresh attempts, in the caller's transaction if any; false when none is refused under this id. */
    @Transactional
    public boolean retryRefused(long id, String kind) {
        return backInLine(db.createNativeQuery(RETRY_REFUSED).setParameter("id", id).setParameter("kind", kind)) == 1;
    }

    /** Runs a statement that puts messages back in line, due now, and returns how many; the relays learn of them on commit. */
    private int backInLine(Query retry) {
        Instant now = Instant.now();
        @SuppressWarnings("unchecked")
        List<String> retried = retry.setParameter("now", now).getResultList();
        retried.forEach(kind -> writer.written(kind, now));
        return retried.size();
    }

    /** The refused message of this kind under this id, locked until the caller's transaction ends; empty when there is none. */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<OutboxMessage> refusedForSettling(long id, String kind) {
        @SuppressWarnings("unchecked")
        List<OutboxMessage> refused = db.createNativeQuery(REFUSED_FOR_UPDATE, OutboxMessage.class).setParameter("id", id)
                .setParameter("kind", kind).getResultList();
        return refused.stream().findFirst();
    }

    /**
     * Records a refused message of this kind as delivered, because staff did its work outside the engine, in the
     * caller's transaction; false when none is refused under this id.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean settleRefused(long id, String kind) {
        return db.createNativeQuery(SETTLE_REFUSED).setParameter("id", id).setParameter("kind", kind).setParameter("now", Instant.now())
                .executeUpdate() == 1;
    }

    /** Where the message of this kind under this id stands; empty when there is none (or it was delivered long enough ago to be purged). */
    @Transactional
    public Optional<Standing> standing(long id, String kind) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = db.createNativeQuery(STANDING).setParameter("id", id).setParameter("kind", kind).unwrap(NativeQuery.class)
                .addScalar("order_id", UUID.class).addScalar("idempotency_key", String.class).addScalar("status", String.class)
                .getResultList();
        return rows.stream().findFirst().map(row -> new Standing((UUID) row[0], (String) row[1], (String) row[2]));
    }

    /** The first dead letters, oldest first. */
    @Transactional
    public List<OutboxMessage> deadLetters(int limit) {
        return OutboxMessage.<OutboxMessage>find("status = ?1 order by id", OutboxMessage.Status.DEAD).page(0, limit).list();
    }

    /** The first messages of this kind that were refused for good, oldest first. */
    @Transactional
    public List<OutboxMessage> refused(String kind, int limit) {
        return OutboxMessage.<OutboxMessage>find("status = ?1 and kind = ?2 order by id", OutboxMessage.Status.REFUSED, kind).page(0, limit).list();
    }

    /** Claims up to a batch of the messages of these kinds due between these times for this relay. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Claim takeDue(List<String> kinds, Instant from, Instant now, Duration length) {
        return take(db.createNativeQuery(TAKE_DUE).setParameter("kinds", kinds).setParameter("from", from)
                .setParameter("batch", config.batchSize()), now, length);
    }

    /** Claims the messages with these keys that are due. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Lease takeByKeys(List<String> idempotencyKeys, Duration length) {
        return take(db.createNativeQuery(TAKE_BY_KEYS).setParameter("keys", idempotencyKeys), Instant.now(), length).lease();
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

    /**
     * Messages whose handler delivers in batches go first, together, since that is quick; then the others one by one,
     * until the instance is stopping: what is left is handed back.
     */
    void deliver(Lease lease, BooleanSupplier stopping) {
        Map<OutboxHandler, List<OutboxMessage>> byHandler = lease.messages().stream()
                .collect(Collectors.groupingBy(message -> handlers.handler(message.kind), LinkedHashMap::new, Collectors.toList()));
        byHandler.forEach((handler, messages) -> {
            if (handler instanceof BatchOutboxHandler batchHandler) {
                deliverTogether(batchHandler, messages, lease);
            }
        });
        List<OutboxMessage> oneByOne = byHandler.entrySet().stream().filter(handled -> !(handled.getKey() instanceof BatchOutboxHandler))
                .flatMap(handled -> handled.getValue().stream()).toList();
        for (int next = 0; next < oneByOne.size(); next++) {
            if (stopping.getAsBoolean()) {
                handBack(oneByOne.subList(next, oneByOne.size()).stream().map(message -> message.id).toList(), lease);
                return;
            }
            attempt(oneByOne.get(next).id, lease);
        }
    }

    /** Gives up this lease on messages not attempted yet, so that another instance takes them now rather than after the lease. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    int handBack(List<Long> ids, Lease lease) {
        int handedBack = db.createNativeQuery(HAND_BACK).setParameter("ids", ids).setParameter("leaseId", lease.id())
                .setParameter("now", Instant.now()).executeUpdate();
        LOG.infof("Stopping: handed back %d outbox messages not attempted yet", handedBack);
        return handedBack;
    }

    /** One attempt at all these messages of one kind: recorded as delivered in one statement, or each as a failed attempt. */
    private void deliverTogether(BatchOutboxHandler handler, List<OutboxMessage> messages, Lease lease) {
        try {
            handler.deliverAll(messages);
        } catch (RuntimeException e) {
            DeliveryError error = DeliveryError.of(e);
            LOG.warnf(error == DeliveryError.UNEXPLAINED ? e : null, "%d outbox messages (%s) failed: %s", messages.size(), handler.kind(),
                    e.toString());
            messages.forEach(message -> count(message.kind, failed(message, lease, error, false), 1));
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
        Span span = deliverySpan(message);
        // Without a span of its own the attempt stays in the caller's context: a refund made within a request keeps
        // that request's trace id in its logs.
        try (Scope inSpan = span.getSpanContext().isValid() ? span.makeCurrent() : Scope.noop()) {
            handlers.handler(message.kind).deliver(message);
            outcome = delivered(List.of(id), lease) == 1 ? Outcome.DELIVERED : Outcome.LEASE_LOST;
        } catch (RuntimeException e) {
            span.recordException(e).setStatus(StatusCode.ERROR);
            DeliveryError error = DeliveryError.of(e);
            outcome = failed(message, lease, error, e instanceof MessageRefusedException);
            // Staff see the error's code and message; the exception itself, with a stack trace when it is unexplained, is only here.
            LOG.warnf(error == DeliveryError.UNEXPLAINED ? e : null, "Outbox message %s (%s) failed%s: %s",
                    message.idempotencyKey, message.kind, outcome == Outcome.DEAD || outcome == Outcome.REFUSED ? " for good" : "",
                    e.toString());
            if (outcome == Outcome.REFUSED) {
                handlers.handler(message.kind).refused(message, error.message());
            }
        } finally {
            span.end();
        }
        if (outcome == Outcome.LEASE_LOST) {
            LOG.warnf("Outbox message %s (%s) was attempted past its lease of %s and taken over meanwhile; raise orders.outbox.lease",
                    message.idempotencyKey, message.kind, lease.length());
        }
        count(message.kind, outcome, 1);
        return outcome;
    }

    /**
     * The span of one attempt, in the trace of the request that wrote the message (so a refund or a shipment,
     * and the downstream call under it, show in the trace of the cancellation or shipping that asked for it);
     * none for a message written outside any recorded trace.
     */
    private Span deliverySpan(OutboxMessage message) {
        if (message.traceParent == null) {
            return Span.getInvalid();
        }
        Span span = tracer.spanBuilder(DELIVERY_SPAN).setParent(TraceParents.parent(message.traceParent)).startSpan();
        if (span.isRecording()) {
            span.setAttribute("orders.outbox.kind", message.kind).setAttribute("orders.order_id", String.valueOf(message.orderId))
                    .setAttribute("orders.outbox.attempt", message.attempts + 1L);
        }
        return span;
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

    /**
     * Counts the failed attempt and schedules the next one, or ends the message: refused when its receiver refused it for
     * good, dead-lettered when its kind may give up and it used its attempts.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Outcome failed(OutboxMessage message, Lease lease, DeliveryError error, boolean refused) {
        // The lease keeps every other writer off the row, so the attempts read with it are still current.
        int attempts = message.attempts + 1;
        boolean lastAttempt = handlers.handler(message.kind).mayGiveUp() && attempts >= config.maxAttempts();
        OutboxMessage.Status status = refused ? OutboxMessage.Status.REFUSED : lastAttempt ? OutboxMessage.Status.DEAD : OutboxMessage.Status.PENDING;
        Instant now = Instant.now();
        // An ended message is due no more: its next_attempt_at says when it ended.
        int recorded = db.createNativeQuery(RECORD_FAILURE)
                .setParameter("status", status.name())
                .setParameter("attempts", attempts)
                .setParameter("nextAttemptAt", status == OutboxMessage.Status.PENDING ? now.plus(backoff(attempts)) : now)
                .setParameter("errorCode", error.code()).setParameter("errorMessage", error.message())
                .setParameter("id", message.id).setParameter("leaseId", lease.id())
                .executeUpdate();
        if (recorded == 0) {
            return Outcome.LEASE_LOST;
        }
        return switch (status) {
            case REFUSED -> Outcome.REFUSED;
            case DEAD -> Outcome.DEAD;
            case PENDING -> Outcome.RETRY;
        };
    }

    /** base * 2^(attempts-1), capped, with equal jitter: between half and all of it. */
    private Duration backoff(int attempts) {
        return Duration.ofMillis(Backoff.equalJitter(config.baseDelay().toMillis(), config.maxDelay().toMillis(), attempts - 1));
    }

    private void count(String kind, Outcome outcome, int messages) {
        deliveries.get(kind).increment(outcome, messages);
    }
}
