package io.orderflow.payment;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** One page of the provider's list of charges, and the cursor of the next page (null on the last). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChargePage(List<ProviderCharge> items, String next) {
}
