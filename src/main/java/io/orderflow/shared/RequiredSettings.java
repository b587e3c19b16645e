package io.orderflow.shared;

import java.util.List;
import java.util.Locale;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.Config;

import io.quarkus.runtime.StartupEvent;

/**
 * Refuses to serve without the settings no default stands for outside dev, test and demo: the providers'
 * addresses (the others default to the sandbox), and the issuer and key that verify bearer tokens (dev and
 * test trust a committed key, demo makes its own). Without this a production deployment missing one would
 * start, and fail its first payment or shipment, or take bearer tokens of any issuer its key signs for.
 * A command's run (add-user) opens no HTTP port, calls no provider and takes no token, so it needs none.
 */
@ApplicationScoped
class RequiredSettings {

    /** A setting, given by any one of its names. */
    record Required(String what, List<String> anyOf) {
    }

    static final List<Required> REQUIRED = List.of(
            new Required("the payment provider's address", List.of("quarkus.rest-client.payment-provider.url")),
            new Required("the warehouse's address", List.of("quarkus.rest-client.warehouse.url")),
            new Required("the issuer of bearer tokens", List.of("mp.jwt.verify.issuer")),
            new Required("the key that verifies bearer tokens", List.of("mp.jwt.verify.publickey.location", "mp.jwt.verify.publickey")));

    void onStart(@Observes StartupEvent start, Config config) {
        require(config);
    }

    static void require(Config config) {
        if (!config.getOptionalValue("quarkus.http.host-enabled", Boolean.class).orElse(true)) {
            return;
        }
        List<String> missing = REQUIRED.stream()
                .filter(required -> required.anyOf().stream().allMatch(name -> config.getOptionalValue(name, String.class).isEmpty()))
                .map(required -> required.what() + ": set " + String.join(" or ", required.anyOf().stream()
                        .map(name -> name + " (" + name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + ")").toList()))
                .toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Settings missing for production: " + String.join("; ", missing)
                    + ". Only the dev, test and demo profiles have them.");
        }
    }
}
