package io.orderflow.outbox;

/**
 * Delivers outbox messages of one kind, one at a time, each under a lease renewed right before it,
 * so a slow provider call holds up no other relay; throwing means "try again later".
 */
public interface OutboxHandler {

    String kind();

    void deliver(OutboxMessage message);

    /**
     * Whether a message of this kind may be given up after {@code orders.outbox.max-attempts} failed
     * attempts, as a dead letter for staff to retry. By default it may not: it is retried for as long
     * as it takes, at most {@code orders.outbox.max-delay} apart, since what it carries (money owed to a
     * customer, an order event) must not be lost to an outage, however long.
     */
    default boolean mayGiveUp() {
        return false;
    }

    /**
     * A message of this kind was recorded as refused for good, after {@link #deliver} threw a
     * {@link MessageRefusedException}; called once per refusal recorded, with the refusal as staff see it.
     */
    default void refused(OutboxMessage message, String refusal) {
    }
}
