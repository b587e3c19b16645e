package io.orderflow.shared.downstream;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Set;

import jakarta.ws.rs.core.Response;

/** Turns a provider's error answer into the exception that says whether to retry. */
public final class DownstreamErrors {

    /**
     * Answers that say the provider did nothing with the request: malformed, unauthenticated, forbidden,
     * unknown, gone (a voided key), too large, of a type it does not take, or invalid. Any other failure
     * (408, 409, 425, 429, 499, 5xx, a status no provider documents) may come after the request took
     * effect, from the provider or a balancer in front of it: its outcome is unknown, and it is retried
     * with the same key, which is what settles it.
     */
    private static final Set<Integer> NOTHING_DONE = Set.of(400, 401, 403, 404, 405, 410, 413, 415, 422);

    private DownstreamErrors() {
    }

    public static RuntimeException of(Response response) {
        int status = response.getStatus();
        if (NOTHING_DONE.contains(status)) {
            return new DownstreamRefusedException(status, ProviderReason.of(response));
        }
        return new DownstreamUnavailableException(status, retryAfter(response.getHeaderString("Retry-After")));
    }

    /** Retry-After in seconds or as an HTTP date (RFC 9110); null when absent or unreadable. */
    static Duration retryAfter(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(value.trim())));
        } catch (NumberFormatException notSeconds) {
            try {
                Duration until = Duration.between(ZonedDateTime.now(), ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME));
                return until.isNegative() ? Duration.ZERO : until;
            } catch (DateTimeParseException notADate) {
                return null;
            }
        }
    }
}
