package io.orderflow.idempotency;

import jakarta.enterprise.context.RequestScoped;

import io.orderflow.shared.json.Fingerprint;

/**
 * The Idempotency-Key the current request holds (or its endpoint is yet to claim), and the answer PostgreSQL keeps for it once a
 * transaction that wrote it committed (the request's effect, or the other request that had used the key).
 */
@RequestScoped
class HeldKey {

    /** A key its endpoint claims itself ({@link KeyClaimedAlongside}), not claimed yet. */
    record Pending(KeyScope scope, Fingerprint fingerprint) {
    }

    private Pending pending;
    private KeyClaim claim;
    private boolean withEffect;
    private IdempotencyRecords.Kept kept;
    private boolean keptWithThisEffect;

    /** Holds the claim, for an endpoint that keeps its key with its effect ({@link KeptWithEffect}) or not. */
    void hold(KeyClaim claim, boolean withEffect) {
        this.claim = claim;
        this.withEffect = withEffect;
    }

    void defer(Pending pending) {
        this.pending = pending;
    }

    /** The pending key, once: whoever takes it claims it. */
    Pending takePending() {
        Pending taken = pending;
        pending = null;
        return taken;
    }

    /** Whether the request holds a key, or has one to claim. */
    boolean any() {
        return claim != null || pending != null;
    }

    void release() {
        this.claim = null;
    }

    boolean withEffect() {
        return withEffect;
    }

    KeyClaim claim() {
        return claim;
    }

    /** The answer kept for the key by another request. */
    void kept(IdempotencyRecords.Kept kept) {
        this.kept = kept;
    }

    /** The answer kept for the key in the transaction of this request's effect. */
    void keptWithThisEffect(IdempotencyRecords.Kept kept) {
        this.kept = kept;
        this.keptWithThisEffect = true;
    }

    IdempotencyRecords.Kept kept() {
        return kept;
    }

    boolean keptWithThisEffect() {
        return keptWithThisEffect;
    }
}
