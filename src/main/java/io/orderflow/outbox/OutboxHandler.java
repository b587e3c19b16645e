package io.orderflow.outbox;

/**
 * Delivers outbox messages of one kind, one at a time, each under a lease renewed right before it,
 * so a slow provider call holds up no other relay; throwing means "try again later".
 */
public interface OutboxHandler {

    String kind();

    void deliver(OutboxMessage message);
}
