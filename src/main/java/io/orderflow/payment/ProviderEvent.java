package io.orderflow.payment;

import java.util.Set;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A provider's event notification: its id (the same on every repeat), its type and the charge it is
 * about, as the provider saw it when it sent the event. Types read: {@code charge.succeeded},
 * {@code charge.failed}, {@code action.completed} (an authentication ended, either way) and
 * {@code charge.refunded}; others are acknowledged and ignored.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ProviderEvent(String id, String type, ProviderCharge data) {

    public static final String CHARGE_SUCCEEDED = "charge.succeeded";
    public static final String CHARGE_FAILED = "charge.failed";
    public static final String ACTION_COMPLETED = "action.completed";
    public static final String CHARGE_REFUNDED = "charge.refunded";
    static final Set<String> READ = Set.of(CHARGE_SUCCEEDED, CHARGE_FAILED, ACTION_COMPLETED, CHARGE_REFUNDED);
}
