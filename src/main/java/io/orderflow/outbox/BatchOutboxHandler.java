package io.orderflow.outbox;

import java.util.List;

/**
 * A handler that delivers many messages in one quick call (e.g. one round trip to Redis): the relay
 * hands it every message of its kind that it took at once, and records the outcome of all of them
 * in one statement.
 */
public interface BatchOutboxHandler extends OutboxHandler {

    /** Delivers the messages in this order, all of them; throwing means "try them all again later". */
    void deliverAll(List<OutboxMessage> messages);

    @Override
    default void deliver(OutboxMessage message) {
        deliverAll(List.of(message));
    }
}
