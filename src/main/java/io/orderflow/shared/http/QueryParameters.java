package io.orderflow.shared.http;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;

/**
 * Query parameters read for a database query. A value PostgreSQL cannot hold is refused here with a
 * 400 naming the parameter; sent on, the database would refuse it and the client would be told 503.
 */
public final class QueryParameters {

    /** The first and last instants a PostgreSQL timestamptz holds (4714-11-24 BC to 294276 AD, to the microsecond). */
    static final Instant EARLIEST = Instant.parse("-4713-11-24T00:00:00Z");
    static final Instant LATEST = Instant.parse("+294276-12-31T23:59:59.999999Z");

    private QueryParameters() {
    }

    /** An ISO-8601 instant that PostgreSQL can store; null when the parameter is absent or empty. */
    public static Instant instant(String parameter, String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        Instant instant;
        try {
            instant = Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw invalid(parameter, "must be an ISO-8601 instant such as 2026-01-31T00:00:00Z");
        }
        if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw invalid(parameter, "must lie from " + EARLIEST + " to " + LATEST);
        }
        return instant;
    }

    /** A whole number from {@code min} to {@code max}; {@code absent} when the parameter is absent or empty. */
    public static long wholeNumber(String parameter, String value, long min, long max, long absent) {
        if (value == null || value.isEmpty()) {
            return absent;
        }
        try {
            long number = Long.parseLong(value);
            if (number >= min && number <= max) {
                return number;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw invalid(parameter, "must be a whole number from " + min + " to " + max);
    }

    /** A 400 {@code validation-failed} naming the parameter. */
    public static ProblemException invalid(String parameter, String message) {
        return new ProblemException(Problem.invalid(List.of(new FieldError(parameter, message))));
    }
}
