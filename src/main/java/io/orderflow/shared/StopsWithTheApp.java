package io.orderflow.shared;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.interceptor.InterceptorBinding;

/**
 * Scheduled work that must not outlive the app: none starts once the app stops, and the stop waits
 * for any in progress (see {@link WorkInProgress}). Quarkus's scheduler stops starting jobs at
 * shutdown but does not wait for one that is running, which then meets a closed database or Redis
 * client, or (in the tests' JVM) the next app starting.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.METHOD, ElementType.TYPE })
public @interface StopsWithTheApp {
}
