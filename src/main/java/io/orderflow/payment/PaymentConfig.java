package io.orderflow.payment;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "orders.payments")
public interface PaymentConfig {

    /** Name of the provider recorded with each payment. */
    @WithDefault("sandbox")
    String channel();

    /**
     * How long a pay request owns the payment it claimed; longer than all of its provider attempts.
     * Past it, a payment still PROCESSING is resolved by asking the provider by its key.
     */
    @WithDefault("60S")
    Duration lease();

    /** How often the recovery job looks for payments left PROCESSING ({@code off} stops it). */
    @WithDefault("10S")
    String recoveryInterval();
}
