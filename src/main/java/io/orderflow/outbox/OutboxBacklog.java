package io.orderflow.outbox;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import org.hibernate.query.NativeQuery;

import io.micrometer.core.instrument.Gauge;
import io.orderflow.shared.metrics.AppGauges;
import io.quarkus.runtime.StartupEvent;

/**
 * What the outbox still holds: the messages not yet delivered, by kind, and the dead letters, counted
 * from where the relays search (see {@link DueScan}) and shown in the gauges {@code orders.outbox.pending}
 * and {@code orders.outbox.dead}.
 */
@ApplicationScoped
public class OutboxBacklog {

    /** Undelivered messages of one kind: how many, and when the oldest was written (null when none). */
    public record Pending(long count, Instant oldest) {

        static final Pending NONE = new Pending(0, null);

        /** How long the oldest has waited, in seconds; 0 when nothing waits. */
        public double oldestAgeSeconds(Instant now) {
            return oldest == null ? 0 : Math.max(0, Duration.between(oldest, now).toMillis() / 1000.0);
        }
    }

    /** Pending messages by kind and the number of dead letters, as counted at one moment. */
    record Counted(Map<String, Pending> pending, long dead, Instant countedAt) {
    }

    /** Gauges read the backlog at most this often, so a scrape of every gauge costs one query. */
    private static final Duration BACKLOG_MAX_AGE = Duration.ofSeconds(1);

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
    private final OutboxHandlers handlers;
    private final DueScans dueScans;
    private volatile Counted backlog;

    OutboxBacklog(EntityManager db, OutboxHandlers handlers, DueScans dueScans) {
        this.db = db;
        this.handlers = handlers;
        this.dueScans = dueScans;
    }

    void registerGauges(@Observes StartupEvent start, AppGauges gauges) {
        for (String kind : handlers.kinds()) {
            gauges.register(Gauge.builder("orders.outbox.pending", this, outbox -> outbox.pending(kind).count()).tag("kind", kind)
                    .description("Outbox messages not yet delivered"));
        }
        // Only kinds that may give up (shipments) end here; each one is also counted in orders.outbox.deliveries{kind, outcome="dead"}.
        gauges.register(Gauge.builder("orders.outbox.dead", this, outbox -> outbox.backlog().dead())
                .description("Outbox messages that gave up and wait for staff to retry them"));
    }

    /** Messages of this kind not yet delivered, as counted at most a second ago. */
    public Pending pending(String kind) {
        return backlog().pending().getOrDefault(kind, Pending.NONE);
    }

    /** How many messages of this kind not yet delivered were written before this time; counted from where the relays search, as the backlog. */
    @Transactional
    public long pendingWrittenBefore(String kind, Instant writtenBefore) {
        return ((Number) db.createNativeQuery(COUNT_WRITTEN_BEFORE).setParameter("kind", kind)
                .setParameter("from", dueScans.of(handlers.laneOf(kind)).current()).setParameter("writtenBefore", writtenBefore)
                .getSingleResult()).longValue();
    }

    private Counted backlog() {
        Counted counted = backlog;
        if (counted == null || counted.countedAt().plus(BACKLOG_MAX_AGE).isBefore(Instant.now())) {
            counted = countBacklog();
            backlog = counted;
        }
        return counted;
    }

    @Transactional
    Counted countBacklog() {
        Instant now = Instant.now();
        @SuppressWarnings("unchecked")
        List<Object[]> rows = db.createNativeQuery(COUNT_BACKLOG).setParameter("kinds", List.copyOf(handlers.kinds()))
                .setParameter("from", dueScans.earliest())
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
        return new Counted(pending, dead, now);
    }
}
