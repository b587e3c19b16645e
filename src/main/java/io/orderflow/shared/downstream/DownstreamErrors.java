package io.orderflow.shared.downstream;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

import jakarta.ws.rs.core.Response;

/** Turns a provider's error answer into the exception that says whether to retry. */
public final class DownstreamErrors {

    private DownstreamErrors() {
    }

    public static RuntimeException of(Response response) {
        int status = response.getStatus();
        // 409: a call with the same idempotency key is still being processed (draft-ietf-httpapi-idempotency-key-header).
        if (status == 409 || status == 429 || status >= 500) {
            return new DownstreamUnavailableException(status, retryAfter(response.getHeaderString("Retry-After")));
        }
        return new DownstreamRefusedException(status);
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
