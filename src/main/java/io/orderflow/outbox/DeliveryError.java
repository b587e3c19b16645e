package io.orderflow.outbox;

import java.util.Optional;

import jakarta.ws.rs.ProcessingException;

import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import io.orderflow.shared.downstream.DownstreamRefusedException;
import io.orderflow.shared.downstream.DownstreamUnavailableException;

/**
 * Why a delivery failed, as staff see it on a dead letter: a stable code and a message. Never a
 * class name, stack trace or SQL; what is not a known provider failure is only in the log.
 */
record DeliveryError(String code, String message) {

    static final DeliveryError PROVIDER_TIMEOUT = new DeliveryError("provider-timeout", "The provider did not answer in time.");
    static final DeliveryError PROVIDER_UNREACHABLE = new DeliveryError("provider-unreachable", "The provider could not be reached.");
    static final DeliveryError UNEXPLAINED = new DeliveryError("delivery-failed", "The delivery failed; the service log has the details.");

    /** The error staff are shown for a failure; a provider's own answer wins over how it was wrapped. */
    static DeliveryError of(Throwable failure) {
        return find(failure, DownstreamUnavailableException.class).map(e -> new DeliveryError("provider-unavailable", e.getMessage()))
                .or(() -> find(failure, DownstreamRefusedException.class).map(e -> new DeliveryError("provider-refused", e.getMessage())))
                .or(() -> find(failure, TimeoutException.class).map(e -> PROVIDER_TIMEOUT))
                .or(() -> find(failure, ProcessingException.class).map(e -> PROVIDER_UNREACHABLE))
                .orElse(UNEXPLAINED);
    }

    /** The error recorded on a message, or null when its last attempt did not fail. */
    static DeliveryError recorded(OutboxMessage message) {
        return message.lastErrorCode == null ? null : new DeliveryError(message.lastErrorCode, message.lastErrorMessage);
    }

    private static <T extends Throwable> Optional<T> find(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return Optional.of(type.cast(t));
            }
        }
        return Optional.empty();
    }
}
