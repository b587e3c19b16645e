package io.orderflow.payment;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** What the provider answers for a charge or refund it made. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ProviderReceipt(String reference, String key) {
}
