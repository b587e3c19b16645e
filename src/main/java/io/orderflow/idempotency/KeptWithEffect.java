package io.orderflow.idempotency;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A POST endpoint whose effect is written in one transaction that starts with
 * {@link IdempotencyRecords#refuseIfKept()} and ends with {@link IdempotencyRecords#keepWithEffect}:
 * a key Redis has forgotten is found there, so the filter does not look it up in PostgreSQL first.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface KeptWithEffect {
}
