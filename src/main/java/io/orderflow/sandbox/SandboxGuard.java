package io.orderflow.sandbox;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.Config;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.config.SmallRyeConfig;

/**
 * Refuses to start a production deployment with the sandbox providers on: they charge and ship nothing,
 * take any card, and their tables exist only in the dev, test and demo profiles (V14).
 */
@ApplicationScoped
class SandboxGuard {

    static final List<String> SANDBOX_PROFILES = List.of("dev", "test", "demo");

    void onStart(@Observes StartupEvent start, SandboxConfig sandbox, Config config) {
        require(sandbox.enabled(), config.unwrap(SmallRyeConfig.class).getProfiles());
    }

    static void require(boolean enabled, List<String> profiles) {
        if (enabled && profiles.stream().noneMatch(SANDBOX_PROFILES::contains)) {
            throw new IllegalStateException("orders.sandbox.enabled is true in profile " + String.join(",", profiles)
                    + ": the sandbox providers run only in the dev, test and demo profiles. Set it to false and point "
                    + "quarkus.rest-client.payment-provider.url and quarkus.rest-client.warehouse.url at the real providers.");
        }
    }
}
