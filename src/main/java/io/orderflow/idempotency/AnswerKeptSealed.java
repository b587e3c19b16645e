package io.orderflow.idempotency;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An endpoint whose answer holds a secret (an order token): the answer its Idempotency-Key keeps, in
 * PostgreSQL and in Redis, has its body sealed ({@link AnswerSeal}); a replay opens it and sends the very
 * bytes of the first answer.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AnswerKeptSealed {
}
