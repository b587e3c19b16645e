package io.orderflow.retention;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import io.quarkus.runtime.configuration.DurationConverter;

/**
 * How long a table's rows are kept past their time column, or {@code off}: kept for ever. Read from
 * configuration through {@link #of(String)} (MicroProfile Config's implicit converter).
 */
public record MaxAge(Optional<Duration> age) {

    public static final MaxAge OFF = new MaxAge(Optional.empty());

    public MaxAge {
        if (age.filter(Duration::isNegative).isPresent()) {
            throw new IllegalArgumentException("A retention age is never negative: " + age.get());
        }
    }

    /** {@code off}, or a duration as Quarkus writes them ({@code 7D}, {@code 12H}, {@code PT30M}). */
    public static MaxAge of(String value) {
        String trimmed = value.trim();
        if (trimmed.equalsIgnoreCase("off")) {
            return OFF;
        }
        Duration age;
        try {
            age = DurationConverter.parseDuration(trimmed);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Not a retention age (a duration such as 7D, or off): " + value, e);
        }
        if (age == null) {
            throw new IllegalArgumentException("Not a retention age (a duration such as 7D, or off): " + value);
        }
        return new MaxAge(Optional.of(age));
    }

    public boolean off() {
        return age.isEmpty();
    }

    /** Rows whose time is before this are past the age, seen at {@code now}. */
    public Instant cutoff(Instant now) {
        return now.minus(age.orElseThrow(() -> new IllegalStateException("The table's retention is off")));
    }
}
