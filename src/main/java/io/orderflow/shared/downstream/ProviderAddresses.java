package io.orderflow.shared.downstream;

import java.util.List;
import java.util.Locale;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.Config;

import io.quarkus.runtime.StartupEvent;

/**
 * Refuses to serve without the providers' addresses. Only dev, test and demo have defaults (the sandbox);
 * without this a production deployment missing one would start and fail its first payment or shipment.
 * A command's run (add-user) opens no HTTP port and calls no provider, so it needs none.
 */
@ApplicationScoped
class ProviderAddresses {

    static final List<String> REQUIRED = List.of("quarkus.rest-client.payment-provider.url", "quarkus.rest-client.warehouse.url");

    void onStart(@Observes StartupEvent start, Config config) {
        require(config);
    }

    static void require(Config config) {
        if (!config.getOptionalValue("quarkus.http.host-enabled", Boolean.class).orElse(true)) {
            return;
        }
        List<String> missing = REQUIRED.stream().filter(name -> config.getOptionalValue(name, String.class).isEmpty()).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("No address for a provider: set " + String.join(" and ", missing.stream()
                    .map(name -> name + " (" + name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + ")").toList())
                    + ". Only the dev, test and demo profiles default to the sandbox providers.");
        }
    }
}
