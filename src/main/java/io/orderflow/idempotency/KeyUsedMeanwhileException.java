package io.orderflow.idempotency;

/**
 * The Idempotency-Key's answer was kept by another request while this one ran (its Redis record was
 * lost or its lease ran out): this request's effect rolls back and it answers as that request did.
 */
public class KeyUsedMeanwhileException extends RuntimeException {

    KeyUsedMeanwhileException() {
        super("Another request kept an answer for this Idempotency-Key", null, false, false);
    }
}
