package io.orderflow.idempotency;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Resources that keep Idempotency-Keys themselves, as the third party they stand in for does (the
 * sandbox providers): the API's {@link IdempotencyFilter} leaves their keys alone.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface KeysOfItsOwn {
}
