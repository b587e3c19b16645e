package io.orderflow.payment;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;

import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.orderflow.shared.downstream.DownstreamRefusedException;
import io.orderflow.shared.downstream.DownstreamUnavailableException;
import io.smallrye.faulttolerance.api.CustomBackoff;

/**
 * Calls to the payment provider, retried by SmallRye Fault Tolerance on connect errors, timeouts,
 * 409 (a call with the same key still processing), 429 and 5xx only, with exponential backoff and
 * jitter ({@link RetryAfterBackoff}), always with the same idempotency key so a retry never charges
 * twice. Each attempt has its own timeout; all attempts together have a budget (maxDuration).
 * Override per deployment with MicroProfile config, e.g. {@code io.orderflow.payment.PaymentGateway/Retry/maxRetries=8}.
 */
@ApplicationScoped
@Retry(maxRetries = 6, delay = 200, delayUnit = ChronoUnit.MILLIS, jitter = 0, maxDuration = 20, durationUnit = ChronoUnit.SECONDS,
        retryOn = { DownstreamUnavailableException.class, ProcessingException.class, TimeoutException.class },
        abortOn = { DownstreamRefusedException.class, PaymentDeclinedException.class })
@CustomBackoff(RetryAfterBackoff.class)
@Timeout(value = 3, unit = ChronoUnit.SECONDS)
public class PaymentGateway {

    private final PaymentProviderClient provider;

    public PaymentGateway(@RestClient PaymentProviderClient provider) {
        this.provider = provider;
    }

    public ProviderCharge charge(String key, ChargeRequest call) {
        return readable(() -> provider.charge(key, call));
    }

    /**
     * One attempt: refunds go through the outbox, which retries with persisted backoff, so a cancel
     * answers at once even when the provider is down.
     */
    @Retry(maxRetries = 0)
    public void refund(String key, RefundRequest call) {
        provider.refund(key, call);
    }

    /** What the provider says of a key, empty when it never saw it. One attempt: recovery asks again later. */
    @Retry(maxRetries = 0)
    public Optional<ProviderCharge> findCharge(String key) {
        try {
            return Optional.of(readable(() -> provider.findCharge(key)));
        } catch (DownstreamRefusedException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Voids a key so that it can never charge, or learns what it did. One attempt: recovery asks again later. */
    @Retry(maxRetries = 0)
    public ProviderCharge voidCharge(String key, UUID orderId) {
        return readable(() -> provider.voidCharge(key, new PaymentProviderClient.VoidRequest(orderId)));
    }

    /** A page of the charges the provider made in [since, until). */
    public ChargePage charges(Instant since, Instant until, String after, int limit) {
        return readable(() -> provider.charges(since.toString(), until.toString(), after, limit));
    }

    /**
     * A provider's answer that is not the JSON it documents says nothing certain: an unknown outcome, never
     * a problem of the caller's request (which a JSON error would otherwise be taken for).
     */
    private static <T> T readable(Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof JsonProcessingException) {
                    throw DownstreamUnavailableException.unreadable(e instanceof WebApplicationException answer ? answer.getResponse().getStatus() : 200);
                }
            }
            throw e;
        }
    }
}
