package io.orderflow.idempotency;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.orderflow.shared.StopsWithTheApp;
import io.quarkus.scheduler.Scheduled;

/**
 * Deletes the Idempotency-Keys past their retention from PostgreSQL, in small batches, on any
 * instance: instances purging at once take different rows, and a second one finds nothing left.
 */
@ApplicationScoped
class IdempotencyKeyPurge {

    private static final Logger LOG = Logger.getLogger(IdempotencyKeyPurge.class);

    private final IdempotencyRecords records;
    private final IdempotencyConfig config;

    public IdempotencyKeyPurge(IdempotencyRecords records, IdempotencyConfig config) {
        this.records = records;
        this.config = config;
    }

    @StopsWithTheApp
    @Scheduled(every = "${orders.idempotency.purge-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP, delayed = "1m")
    void purgeOnSchedule() {
        purge();
    }

    /** Purges until no key past its retention is left; returns how many it deleted. */
    public int purge() {
        Instant now = Instant.now();
        int purged = 0;
        int batch;
        do {
            batch = records.purge(now, config.purgeBatchSize());
            purged += batch;
        } while (batch == config.purgeBatchSize());
        if (purged > 0) {
            LOG.infof("Forgot %d Idempotency-Keys past their retention", purged);
        }
        return purged;
    }
}
