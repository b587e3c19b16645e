package io.orderflow.idempotency;

/** The key claimed alongside an endpoint's own claim answers the request itself: a replay, a key in use or reused. */
class KeyAnsweredException extends RuntimeException {

    private final transient KeyClaim claim;

    KeyAnsweredException(KeyClaim claim) {
        super("The Idempotency-Key answers this request", null, false, false);
        this.claim = claim;
    }

    KeyClaim claim() {
        return claim;
    }
}
