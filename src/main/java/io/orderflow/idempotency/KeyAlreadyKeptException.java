package io.orderflow.idempotency;

/**
 * An answer is kept in PostgreSQL for the Idempotency-Key of the request whose effect is being written:
 * a request before it, which Redis has forgotten, or one beside it that committed first. The effect
 * rolls back and the request is answered as that request was.
 */
public class KeyAlreadyKeptException extends RuntimeException {

    KeyAlreadyKeptException() {
        super("An answer is kept for this Idempotency-Key", null, false, false);
    }
}
