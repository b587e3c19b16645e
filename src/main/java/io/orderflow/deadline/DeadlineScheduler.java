package io.orderflow.deadline;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Gauge;
import io.orderflow.shared.BackgroundThreads;
import io.orderflow.shared.metrics.AppGauges;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Looks for due deadlines on every instance, every poll interval, and fires them batch after batch
 * while batches come full. Nothing is held in memory between looks: the deadlines are in the orders.
 * A thread of its own rather than {@code @Scheduled}: Quarkus's scheduler checks its triggers once a
 * second, too coarse for firing within about a second of a deadline. It runs wherever scheduled work
 * runs, so not in the operator's commands.
 */
@ApplicationScoped
class DeadlineScheduler {

    private static final Logger LOG = Logger.getLogger(DeadlineScheduler.class);
    private static final Duration FIRST_LOOK = Duration.ofSeconds(1);
    /** How long stopping waits for a batch in progress. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final DeadlineService deadlines;
    private final int batchSize;
    private final Duration pollInterval;
    private final boolean enabled;
    private ScheduledExecutorService thread;

    public DeadlineScheduler(DeadlineService deadlines, DeadlineConfig config,
            @ConfigProperty(name = "orders.deadlines.poll-interval", defaultValue = "1S") Duration pollInterval,
            @ConfigProperty(name = "quarkus.scheduler.enabled", defaultValue = "true") boolean enabled) {
        this.deadlines = deadlines;
        this.batchSize = config.batchSize();
        this.pollInterval = pollInterval;
        this.enabled = enabled;
    }

    void start(@Observes StartupEvent startup, AppGauges gauges) {
        for (Deadline deadline : Deadline.values()) {
            gauges.register(Gauge.builder("orders.deadlines.oldest.overdue", deadlines, service -> overdueSeconds(service, deadline))
                    .tag("event", deadline.label()).baseUnit("seconds")
                    .description("How long the oldest deadline that is due has waited to fire; 0 when none waits"));
        }
        if (!enabled) {
            return;
        }
        thread = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread firing = new Thread(task, "deadlines");
            // Never holds the JVM up: a batch cut short rolls back and is due again for the next look.
            firing.setDaemon(true);
            return firing;
        });
        thread.scheduleWithFixedDelay(this::fireDue, FIRST_LOOK.toMillis(), pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void fireDue() {
        for (Deadline deadline : Deadline.values()) {
            try {
                while ((thread == null || !thread.isShutdown()) && deadlines.fireDue(deadline, batchSize) == batchSize) {
                    // a full batch may have left more behind it
                }
            } catch (RuntimeException batchFailed) {
                LOG.warnf("A batch of %s deadlines failed (%s); firing them one at a time", deadline, batchFailed.toString());
                fireOneByOne(deadline);
            }
        }
    }

    /**
     * Fires the due orders one at a time, each in a transaction of its own. An order whose firing
     * fails has its deadline put off (orders.deadlines.retry-failed-after), so that it cannot hold the
     * ones behind it back at every look, and is counted in orders_deadlines_failed_total.
     */
    private void fireOneByOne(Deadline deadline) {
        try {
            for (UUID id : deadlines.due(deadline, batchSize)) {
                try {
                    deadlines.fireOne(deadline, id);
                } catch (RuntimeException e) {
                    deadlines.putOff(deadline, id);
                    LOG.errorf(e, "The %s deadline of order %s could not fire; it is tried again later", deadline, id);
                }
            }
        } catch (RuntimeException e) {
            // Caught, or the executor would never run this again (the database is down, say).
            LOG.warnf("Firing %s deadlines stopped; they are due again at the next look: %s", deadline, e.toString());
        }
    }

    /** SIGTERM: no look starts after the one in progress, whose batches end with their transactions. */
    void beginStopping(@Observes ShutdownDelayInitiatedEvent signal) {
        if (thread != null) {
            thread.shutdown();
        }
    }

    /** At shutdown, before the database closes; a batch cut off after the wait rolls back and is due again. */
    void stop(@Observes ShutdownEvent shutdown) {
        if (thread == null) {
            return;
        }
        BackgroundThreads.stop(thread, STOP_WAIT);
    }

    private static double overdueSeconds(DeadlineService service, Deadline deadline) {
        try {
            return service.oldestOverdue(deadline).toNanos() / 1e9;
        } catch (RuntimeException databaseUnavailable) {
            return Double.NaN;
        }
    }
}
