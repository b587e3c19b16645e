package io.orderflow.payment;

import java.util.Map;
import java.util.UUID;

/**
 * A charge as the provider is asked for it: the order, an amount as a decimal string in the currency's
 * major unit, how to pay, and metadata naming the deployment that made it ({@link PaymentConfig#deploymentId()}), and where
 * the provider sends the customer back after an authentication (3-D Secure).
 */
public record ChargeRequest(UUID orderId, String amount, String currency, String paymentMethod, Map<String, String> metadata,
        String returnUrl) {

    /** The metadata member that names the deployment. */
    static final String DEPLOYMENT = "deployment";
}
