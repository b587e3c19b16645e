package io.orderflow.payment;

import java.time.temporal.ChronoUnit;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;

import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import io.orderflow.shared.downstream.DownstreamRefusedException;
import io.orderflow.shared.downstream.DownstreamUnavailableException;
import io.orderflow.shared.downstream.RetryAfterBackoff;
import io.smallrye.faulttolerance.api.CustomBackoff;

/**
 * Calls to the payment provider, retried by SmallRye Fault Tolerance on connect errors, timeouts,
 * 429 and 5xx only, with exponential backoff and jitter ({@link RetryAfterBackoff}), always with the
 * same idempotency key so a retry never charges twice. Each attempt has its own timeout; all
 * attempts together have a budget. Override per deployment with MicroProfile config, e.g.
 * {@code io.orderflow.payment.PaymentGateway/Retry/maxRetries=8}.
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

    public ProviderReceipt charge(String key, MoneyCall call) {
        return provider.charge(key, call);
    }

    /**
     * One attempt: refunds go through the outbox, which retries with persisted backoff, so a cancel
     * answers at once even when the provider is down.
     */
    @Retry(maxRetries = 0)
    public ProviderReceipt refund(String key, MoneyCall call) {
        return provider.refund(key, call);
    }

    /** The charge the provider made with this key, if it made one. */
    public Optional<ProviderReceipt> findCharge(String key) {
        try {
            return Optional.of(provider.findCharge(key));
        } catch (DownstreamRefusedException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
