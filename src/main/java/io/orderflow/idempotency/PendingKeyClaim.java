package io.orderflow.idempotency;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.orderflow.shared.redis.ClaimAlongside;
import io.quarkus.arc.Arc;

/**
 * The Idempotency-Key of a request to a {@link KeyClaimedAlongside} endpoint, for the endpoint's first
 * claim script to claim first in the same round trip. What that claim finds acts as the filter would:
 * a fresh claim makes the request the key's holder; a replay, a key in use or reused, or an answer kept
 * in PostgreSQL for a key taken over answers the request instead ({@link KeyAnsweredException}).
 */
@ApplicationScoped
public class PendingKeyClaim {

    private final HeldKey held;
    private final IdempotencyStore store;
    private final IdempotencyRecords records;
    private final KeyOutcomes outcomes;

    PendingKeyClaim(HeldKey held, IdempotencyStore store, IdempotencyRecords records, KeyOutcomes outcomes) {
        this.held = held;
        this.store = store;
        this.records = records;
        this.outcomes = outcomes;
    }

    /** The request's key, once; none when it sent none or is no request to such an endpoint. */
    public Optional<ClaimAlongside> take() {
        HeldKey.Pending pending = Arc.container().requestContext().isActive() ? held.takePending() : null;
        return pending == null ? Optional.empty() : Optional.of(store.alongside(pending.scope(), pending.fingerprint(), this::found));
    }

    private void found(KeyClaim claim) {
        if (claim.outcome().holds()) {
            held.hold(claim, true);
            if (claim.outcome() == KeyClaim.Outcome.CLAIMED || records.find(claim.scope()).isEmpty()) {
                outcomes.count(claim.outcome());
                return;
            }
        }
        throw new KeyAnsweredException(claim);
    }
}
