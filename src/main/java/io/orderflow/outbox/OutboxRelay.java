package io.orderflow.outbox;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;

import org.jboss.logging.Logger;

import io.orderflow.shared.BackgroundThreads;
import io.orderflow.shared.StopsWithTheApp;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;

/**
 * Delivers due outbox messages on every instance; the outbox's locking keeps them from doubling up.
 * Each lane has one relay loop per instance, which drains batch after batch while they come full;
 * wake-ups that arrive meanwhile fold into one more run, so a burst of commits costs a few claims
 * rather than one each. Both lanes run every poll interval; the batched lane (order events) also as
 * soon as a transaction that wrote one of its messages commits.
 */
@ApplicationScoped
class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    /** How Quarkus spells a schedule that never runs. */
    private static final Set<String> OFF = Set.of("off", "disabled");
    /** How long stopping waits for a batch in progress. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final OutboxDelivery delivery;
    private final DueScans dueScans;
    private final int batchSize;
    private final boolean enabled;
    private final Map<Lane, Loop> loops = new EnumMap<>(Lane.class);

    public OutboxRelay(OutboxDelivery delivery, DueScans dueScans, OutboxConfig config) {
        this.delivery = delivery;
        this.dueScans = dueScans;
        this.batchSize = config.batchSize();
        this.enabled = !OFF.contains(config.pollInterval().trim().toLowerCase(Locale.ROOT));
        for (Lane lane : Lane.values()) {
            loops.put(lane, new Loop(lane));
        }
    }

    @StopsWithTheApp
    @Scheduled(every = "${orders.outbox.poll-interval}", delayed = "1s")
    void poll() {
        loops.values().forEach(Loop::wake);
    }

    /**
     * A message was committed: its lane's next search starts no later than it is due, and the batched
     * lane runs now. The other lane waits for the poll: a refund's writer tries it itself right after
     * the commit, and a relay woken by that commit would take it first.
     */
    void committed(@Observes(during = TransactionPhase.AFTER_SUCCESS) MessageQueued queued) {
        dueScans.of(queued.lane()).include(queued.due());
        if (enabled && queued.lane() == Lane.BATCHED) {
            loops.get(queued.lane()).wake();
        }
    }

    /** SIGTERM: each loop ends after its batch in progress, handing back what that batch has not attempted yet. */
    void beginStopping(@Observes ShutdownDelayInitiatedEvent signal) {
        loops.values().forEach(Loop::takeNoMore);
    }

    /** At shutdown, before the database and Redis clients close. */
    void stop(@Observes ShutdownEvent shutdown) {
        loops.values().forEach(Loop::stop);
    }

    /** One lane's relay loop: a single thread, and at most one run queued behind the one in progress. */
    private final class Loop {

        private final Lane lane;
        private final ExecutorService thread;
        private final AtomicBoolean runQueued = new AtomicBoolean();

        Loop(Lane lane) {
            this.lane = lane;
            this.thread = Executors.newSingleThreadExecutor(task -> {
                Thread relay = new Thread(task, "outbox-relay-" + lane.name().toLowerCase(Locale.ROOT));
                // Never holds the JVM up: a message it was delivering when the service stopped is delivered again later.
                relay.setDaemon(true);
                return relay;
            });
        }

        void wake() {
            if (!thread.isShutdown() && runQueued.compareAndSet(false, true)) {
                try {
                    thread.execute(this::drain);
                } catch (RejectedExecutionException stopping) {
                    // the loop stopped between the look and the run: nothing more to relay here
                }
            }
        }

        private void drain() {
            runQueued.set(false);
            try {
                while (!thread.isShutdown() && delivery.relay(lane) == batchSize) {
                    // a full batch may have left more behind it
                }
            } catch (RuntimeException e) {
                LOG.warnf(e, "The outbox relay of the %s lane stopped; it runs again at the next poll", lane);
            }
        }

        void takeNoMore() {
            thread.shutdown();
        }

        /** A batch still running after the wait is cut off; its messages are delivered again after their lease. */
        void stop() {
            BackgroundThreads.stop(thread, STOP_WAIT);
        }
    }
}
