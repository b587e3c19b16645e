package io.orderflow.idempotency;

import jakarta.enterprise.context.RequestScoped;

/**
 * The Idempotency-Key the current request holds, and the answer PostgreSQL keeps for it once a
 * transaction that wrote it committed (the request's effect, or the other request that had used the key).
 */
@RequestScoped
class HeldKey {

    private KeyClaim claim;
    private IdempotencyRecords.Kept kept;

    void hold(KeyClaim claim) {
        this.claim = claim;
    }

    KeyClaim claim() {
        return claim;
    }

    void kept(IdempotencyRecords.Kept kept) {
        this.kept = kept;
    }

    IdempotencyRecords.Kept kept() {
        return kept;
    }
}
