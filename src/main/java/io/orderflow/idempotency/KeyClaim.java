package io.orderflow.idempotency;

import io.orderflow.shared.json.Fingerprint;

/** What claiming an Idempotency-Key found; {@code CLAIMED} and {@code TAKEN_OVER} make this request its holder. */
record KeyClaim(Outcome outcome, KeyScope scope, Fingerprint fingerprint, String recordKey, String claimId, StoredAnswer answer) {

    public enum Outcome {
        CLAIMED, TAKEN_OVER, IN_USE, MISMATCH, REPLAY;

        public boolean holds() {
            return this == CLAIMED || this == TAKEN_OVER;
        }
    }
}
