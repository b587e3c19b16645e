package io.orderflow.payment;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "orders.payments")
public interface PaymentConfig {

    /**
     * This deployment's name at the provider, sent with every charge as {@code metadata.deployment}:
     * reconciliation refunds only charges that carry it (or none, from before it was sent) and reports
     * any other charge on the provider account as {@code foreign}. Distinct per deployment that shares an account.
     */
    @WithDefault("order-workflow-engine")
    String deploymentId();

    /**
     * Where the provider sends a customer back after authenticating a charge (3-D Secure); {@code {orderId}}
     * stands for the order's id. The order's page by default; a provider of its own needs an absolute address.
     */
    @WithDefault("/checkout/orders/{orderId}")
    String returnUrl();

    /** Name of the provider recorded with each payment. */
    @WithDefault("sandbox")
    String channel();

    /**
     * The payment provider's secret API key, sent with every call as {@code Authorization: Bearer <key>}
     * (see {@link PaymentProviderClient}); in dev, test and demo the sandbox's own.
     */
    Optional<String> apiKey();

    /** The payment method used when a pay request names none. */
    @WithDefault("pm_card_visa")
    String defaultMethod();

    /** The payment methods the order page offers (a choice only when there are several, as in dev and demo). */
    @WithDefault("${orders.payments.default-method}")
    List<String> offeredMethods();

    /**
     * How the order page names each offered method ({@code orders.payments.method-names.<method>=<name>}); a method
     * without a name shows its id.
     */
    Map<String, String> methodNames();

    /**
     * How long a request or job owns the payment attempt it claimed; longer than all of its provider
     * attempts. Past it, an attempt still PROCESSING is settled by asking the provider by its key.
     */
    @WithDefault("60S")
    Duration lease();

    /** How often the recovery job settles attempts whose outcome is unknown ({@code off} stops it). */
    @WithDefault("10S")
    String recoveryInterval();

    /**
     * How long after a charge was last sent the provider may still be executing it. Until then an
     * unknown outcome of an order still awaiting payment is only looked up; past it, the key is voided
     * at the provider, which settles it for certain. Well above the per-attempt timeout.
     */
    @WithDefault("10M")
    Duration processingHorizon();

    /**
     * How long a refund may be owed before it counts as overdue: in the gauge {@code orders_refunds_overdue},
     * and with a warning in the log at each further failed attempt. It is retried all the same, for as long as it takes.
     */
    @WithDefault("15M")
    Duration refundOverdueAfter();

    /** The provider's signed event notifications, POST /payments/provider-events. */
    Events events();

    interface Events {

        /** The secret the provider signs its notifications with; without one, notifications are refused (404). */
        Optional<String> secret();

        /** How far a notification's signed timestamp may be from now: an older one is refused as a replay. */
        @WithDefault("5M")
        Duration tolerance();
    }

    /** Reconciliation of the provider's charges with the payments table. */
    Reconciliation reconciliation();

    interface Reconciliation {

        /** How often it runs ({@code off} stops it; staff may still run it). */
        @WithDefault("15M")
        String interval();

        /** How far back each run looks at the provider's charges. */
        @WithDefault("24H")
        Duration window();
    }
}
