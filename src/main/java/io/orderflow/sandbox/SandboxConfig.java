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
}
