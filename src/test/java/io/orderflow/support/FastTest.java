package io.orderflow.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/** A plain JUnit test of pure logic: the fast lane ({@code ./mvnw test -Pfast}) runs these alone. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("fast")
@BesideTheApp
public @interface FastTest {
}
