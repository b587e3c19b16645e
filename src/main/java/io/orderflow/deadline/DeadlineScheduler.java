package io.orderflow.deadline;

import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;

/**
 * Looks for due deadlines on every instance, every poll interval, and fires them batch after batch
 * while batches come full. Nothing is held in memory between looks: the deadlines are in the orders.
 */
@ApplicationScoped
public class DeadlineScheduler {

    private static final Logger LOG = Logger.getLogger(DeadlineScheduler.class);

    private final DeadlineService deadlines;
    private final int batchSize;
    private final MeterRegistry metrics;
    private final List<Gauge> gauges = new ArrayList<>();

    public DeadlineScheduler(DeadlineService deadlines, DeadlineConfig config, MeterRegistry metrics) {
        this.deadlines = deadlines;
        this.batchSize = config.batchSize();
        this.metrics = metrics;
        for (Deadline deadline : Deadline.values()) {
            gauges.add(Gauge.builder("orders.deadlines.oldest.overdue", deadlines, service -> overdueSeconds(service, deadline))
                    .tag("event", deadline.event().wireName()).baseUnit("seconds")
                    .description("How long the oldest deadline that is due has waited to fire; 0 when none waits")
                    .strongReference(true).register(metrics));
        }
    }

    @Scheduled(every = "${orders.deadlines.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP, delayed = "1s")
    void fireDue() {
        for (Deadline deadline : Deadline.values()) {
            try {
                while (deadlines.fireDue(deadline, batchSize) == batchSize) {
                    // a full batch may have left more behind it
                }
            } catch (RuntimeException e) {
                LOG.warnf("Firing %s deadlines stopped; they are due again at the next look: %s", deadline, e.toString());
            }
        }
    }

    /** The registry may outlive this bean (tests restart the app in one JVM): its gauges must not call it then. */
    @PreDestroy
    void removeGauges() {
        gauges.forEach(metrics::remove);
    }

    private static double overdueSeconds(DeadlineService service, Deadline deadline) {
        try {
            return service.oldestOverdue(deadline).toNanos() / 1e9;
        } catch (RuntimeException databaseUnavailable) {
            return Double.NaN;
        }
    }
}
