package io.orderflow.idempotency;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A POST endpoint whose effect is written in one transaction that ends with
 * {@link IdempotencyRecords#keepWithEffect}: a key Redis has forgotten is met there, as the row it
 * conflicts with, or, when the endpoint answers otherwise (a price that changed, a product that
 * exists), is looked up before that answer goes out. So the filter does not look it up first.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface KeptWithEffect {
}
