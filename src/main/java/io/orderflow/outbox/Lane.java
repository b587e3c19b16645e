package io.orderflow.outbox;

/**
 * Messages relayed apart, each lane by its own relay loop, so that events never wait behind a slow
 * provider: BATCHED, the kinds whose handler delivers many in one quick call, as soon as they are
 * committed; SINGLE, the others, one provider call at a time.
 */
enum Lane {
    BATCHED, SINGLE
}
