package io.orderflow.payment;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

import io.orderflow.order.OrderView;

/** A pay's 202: the order, still created, and where the customer authenticates the charge (3-D Secure). */
public record AuthenticationRequired(@JsonUnwrapped OrderView order, ProviderCharge.NextAction nextAction) {
}
