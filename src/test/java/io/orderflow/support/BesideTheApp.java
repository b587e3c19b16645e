package io.orderflow.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A test class that starts no Quarkus app: in the whole suite it runs beside the Quarkus tests, which take
 * one class at a time, instead of after them. The lock keeps such classes to one at a time among
 * themselves, each one's methods in one thread and in their order.
 */
@Target({ ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("beside-the-app")
public @interface BesideTheApp {
}
