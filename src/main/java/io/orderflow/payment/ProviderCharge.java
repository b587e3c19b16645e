package io.orderflow.payment;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What the provider says of a charge key: its status, the amount and currency it took, its reference,
 * and, while the customer must authenticate (3-D Secure), where to send them. Read strictly
 * ({@link #readFor}): only {@code succeeded} for the amount and currency asked for is a charge.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ProviderCharge(String key, String reference, String status, UUID orderId, String amount, String currency,
        Boolean refunded, NextAction nextAction, Map<String, String> metadata) {

    private static final Set<String> TOOK_NOTHING = Set.of("declined", "failed", "voided", "canceled", "cancelled");

    /** Where the customer completes what the provider needs of them, e.g. {@code {"type":"redirect","url":...}}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NextAction(String type, String url) {
    }

    /** What an answer means for the money. */
    public enum Reading {
        /** Charged, for the amount and currency asked for. */
        SUCCEEDED,
        /** Charged, but not what was asked for (or an amount that cannot be read): money to give back. */
        WRONG_AMOUNT,
        /** Waiting for the customer's authentication; nothing is charged until the provider confirms. */
        REQUIRES_ACTION,
        /** Certainly not charged: declined, failed, voided or cancelled at the provider. */
        NOT_CHARGED,
        /** Processing, or an answer that says nothing certain: settled only by a later certain answer. */
        UNKNOWN
    }

    /** Reads the answer against what was asked for. */
    public Reading readFor(BigDecimal askedAmount, String askedCurrency) {
        String normalised = status == null ? "" : status.toLowerCase(Locale.ROOT);
        return switch (normalised) {
            case "succeeded" -> reference == null ? Reading.UNKNOWN
                    : isFor(askedAmount, askedCurrency) ? Reading.SUCCEEDED : Reading.WRONG_AMOUNT;
            case "requires_action" -> nextAction != null && nextAction.url() != null ? Reading.REQUIRES_ACTION : Reading.UNKNOWN;
            default -> tookNothing() ? Reading.NOT_CHARGED : Reading.UNKNOWN;
        };
    }

    /** Certainly not charged: declined, failed, voided or cancelled at the provider. */
    public boolean tookNothing() {
        return status != null && TOOK_NOTHING.contains(status.toLowerCase(Locale.ROOT));
    }

    /** Whether this charge took exactly {@code askedAmount} in {@code askedCurrency} ("12.5" and "12.50" are one amount). */
    public boolean isFor(BigDecimal askedAmount, String askedCurrency) {
        return askedCurrency != null && askedCurrency.equalsIgnoreCase(currency) && askedAmount != null
                && amountTaken().map(taken -> taken.compareTo(askedAmount) == 0).orElse(false);
    }

    /** Whether the provider says it charged under this key (for whatever amount). */
    public boolean charged() {
        return "succeeded".equalsIgnoreCase(status);
    }

    /** Whether the provider gave this charge back (providers that do not say: not known to be refunded). */
    public boolean isRefunded() {
        return Boolean.TRUE.equals(refunded);
    }

    /** The metadata value under a name, or null. */
    public String metadata(String name) {
        return metadata == null ? null : metadata.get(name);
    }

    private Optional<BigDecimal> amountTaken() {
        try {
            return Optional.ofNullable(amount).map(BigDecimal::new);
        } catch (NumberFormatException unreadable) {
            return Optional.empty();
        }
    }
}
