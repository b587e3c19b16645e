package io.orderflow.warehouse;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The warehouse's answer to a shipment request: its reference for the shipment (and more, which is not kept). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ShipmentReceipt(String reference) {
}
