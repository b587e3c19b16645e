package io.orderflow.outbox;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.scheduler.Scheduled;

/** Delivers due outbox messages on every instance; the outbox's locking keeps them from doubling up. */
@ApplicationScoped
public class OutboxRelay {

    private final Outbox outbox;

    public OutboxRelay(Outbox outbox) {
        this.outbox = outbox;
    }

    @Scheduled(every = "${orders.outbox.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            delayed = "1s")
    void relay() {
        while (outbox.relay() > 0) {
            // drain what is due, one batch at a time
        }
    }
}
