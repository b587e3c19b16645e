package io.orderflow.sandbox;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The built-in sandbox providers; on in the dev, test and demo profiles only. */
@ConfigMapping(prefix = "orders.sandbox")
public interface SandboxConfig {

    /** Whether {@code /sandbox/...} answers at all. */
    @WithDefault("false")
    boolean enabled();

    /**
     * The secret API key the sandbox takes from its clients (the app's own REST clients send it), as a real
     * provider's secret key; staff may call it too. Without one, only staff.
     */
    Optional<String> apiKey();

    /** Added to each charge, refund and shipment call. */
    @WithDefault("0S")
    Duration latency();

    /** Share of calls (0 to 1) answered 503 before anything is done. */
    @WithDefault("0")
    double failureRate();

    /** Share of calls (0 to 1) that take {@link #slowLatency()} longer, then complete: they time out at a hurried client. */
    @WithDefault("0")
    double slowRate();

    @WithDefault("2S")
    Duration slowLatency();

    /** The event notifications (webhooks) the sandbox sends about charges and refunds. */
    Events events();

    interface Events {

        /** Where to send them ({@code POST}); none: none are sent. Read at each event ({@link SandboxEvents}). */
        Optional<String> url();

        /** The secret they are signed with: the shop's {@code orders.payments.events.secret}. */
        @WithDefault("${orders.payments.events.secret:}")
        Optional<String> secret();

        /** How long after the event each is sent. */
        @WithDefault("0S")
        Duration delay();

        /** Up to this much more, at random per copy: events sent close together may arrive in any order. */
        @WithDefault("0S")
        Duration jitter();

        /** Share of events (0 to 1) sent twice, as providers do now and then. */
        @WithDefault("0")
        double duplicateRate();
    }
}
