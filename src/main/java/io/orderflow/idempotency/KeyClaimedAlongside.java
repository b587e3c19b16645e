package io.orderflow.idempotency;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@link KeptWithEffect} endpoint whose first Redis script claims the request's key too, one round
 * trip for both ({@link PendingKeyClaim}). The filter leaves the claim to it; should the endpoint answer
 * before it claimed (a refusal), the filter claims then, so the key's own answers still come first.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface KeyClaimedAlongside {
}
