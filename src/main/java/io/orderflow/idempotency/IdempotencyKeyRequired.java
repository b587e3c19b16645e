package io.orderflow.idempotency;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A POST endpoint that refuses requests without an Idempotency-Key (400 {@code idempotency-key-missing}). */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface IdempotencyKeyRequired {
}
