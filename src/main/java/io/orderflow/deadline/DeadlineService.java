package io.orderflow.deadline;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.orderflow.lifecycle.Lifecycle;
import io.orderflow.order.OrderStatusChanges;
import io.orderflow.order.OrderTransitions;
import io.orderflow.shared.metrics.Counters;
import io.quarkus.runtime.Startup;

/**
 * Fires orders' deadlines. Due orders are claimed in deadline order, a batch at a time, with FOR UPDATE
 * SKIP LOCKED, so that instances firing at once share the work and never fire one order twice; each
 * is moved by the same guarded UPDATE as any transition, in the claim's transaction, with its
 * follow-up work (stock released, order event queued). An instance that dies mid-batch rolls it back,
 * and the orders are due again for whoever looks next.
 */
@Startup
@ApplicationScoped
class DeadlineService {

    private final EntityManager db;
    private final OrderTransitions transitions;
    private final DeadlineConfig config;
    private final Counters<Deadline> fired;
    private final Counters<Deadline> failed;

    public DeadlineService(EntityManager db, OrderTransitions transitions, DeadlineConfig config, Lifecycle lifecycle,
            MeterRegistry metrics) {
        this.db = db;
        this.transitions = transitions;
        this.config = config;
        this.fired = Counters.of(metrics, "orders.deadlines.fired", "Orders whose deadline fired, counted once committed", Tags.empty(), "event",
                EnumSet.allOf(Deadline.class), Deadline::label);
        this.failed = Counters.of(metrics, "orders.deadlines.failed", "Firings that failed and were put off", Tags.empty(), "event",
                EnumSet.allOf(Deadline.class), Deadline::label);
        for (Deadline deadline : Deadline.values()) {
            // The claim queries name their state so that the partial indexes serve them; the lifecycle decides.
            if (!lifecycle.sourcesOf(deadline.event()).equals(EnumSet.of(deadline.state()))) {
                throw new IllegalStateException(deadline + " runs in " + deadline.state() + " but the lifecycle fires "
                        + deadline.event() + " from " + lifecycle.sourcesOf(deadline.event()));
            }
        }
    }

    /** Fires one batch of the deadline's due orders; returns how many were claimed (a full batch may leave more). */
    @Transactional
    public int fireDue(Deadline deadline, int limit) {
        List<UUID> due = claim(deadline, limit);
        if (!due.isEmpty()) {
            transitions.fire(due, deadline.state(), deadline.event());
        }
        return due.size();
    }

    /** The deadline's due orders, up to {@code limit}, in deadline order; none stays claimed. */
    @Transactional
    public List<UUID> due(Deadline deadline, int limit) {
        return claim(deadline, limit);
    }

    /** Fires the deadline of one order, in a transaction of its own; an order that moved on meanwhile is left as it is. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void fireOne(Deadline deadline, UUID id) {
        transitions.fire(List.of(id), deadline.state(), deadline.event());
    }

    /**
     * Puts off the deadline of an order whose firing failed, so that it holds no other back meanwhile:
     * by orders.deadlines.retry-failed-after the first time, twice as long after each further failure,
     * never longer than orders.deadlines.retry-failed-at-most.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void putOff(Deadline deadline, UUID id) {
        db.createNativeQuery(deadline.putOff).setParameter("now", Instant.now())
                .setParameter("firstMillis", config.retryFailedAfter().toMillis())
                .setParameter("mostMillis", config.retryFailedAtMost().toMillis())
                .setParameter("id", id).executeUpdate();
        failed.increment(deadline);
    }

    /** How long the oldest deadline that is due has waited; zero when none is. */
    @Transactional
    public Duration oldestOverdue(Deadline deadline) {
        Instant now = Instant.now();
        Object oldest = db.createNativeQuery(deadline.oldestDue).setParameter("now", now).getSingleResult();
        return oldest == null ? Duration.ZERO : Duration.between((Instant) oldest, now);
    }

    @SuppressWarnings("unchecked")
    private List<UUID> claim(Deadline deadline, int limit) {
        return db.createNativeQuery(deadline.claimDue, UUID.class).setParameter("now", Instant.now()).setParameter("limit", limit)
                .getResultList();
    }

    /** Counts what committed: a batch rolled back fires again. */
    void count(@Observes(during = TransactionPhase.AFTER_SUCCESS) OrderStatusChanges changes) {
        for (Deadline deadline : Deadline.values()) {
            if (changes.event() == deadline.event()) {
                fired.increment(deadline, changes.all().size());
            }
        }
    }
}
