package io.orderflow.payment;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What the provider says of a charge key: succeeded (with its reference), declined or voided (certainly
 * not charged), or still processing.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ProviderCharge(String key, String reference, String status, UUID orderId, String amount, String currency,
        Boolean refunded) {

    public boolean charged() {
        return "succeeded".equals(status);
    }

    /** Whether the provider gave this charge back (providers that do not say: not known to be refunded). */
    public boolean isRefunded() {
        return Boolean.TRUE.equals(refunded);
    }

    /** Certainly not charged: the provider can no longer charge with this key. */
    public boolean notCharged() {
        return "declined".equals(status) || "voided".equals(status);
    }
}
