package io.orderflow.outbox;

/** Delivers outbox messages of one kind; throwing means "try again later". */
public interface OutboxHandler {

    String kind();

    void deliver(OutboxMessage message);
}
