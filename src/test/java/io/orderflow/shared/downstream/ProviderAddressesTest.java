package io.orderflow.shared.downstream;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

import io.orderflow.support.FastTest;

/** A deployment without the providers' addresses does not start serving; a command's run needs none. */
@FastTest
class ProviderAddressesTest {

    private static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(properties, "test", 100)).build();
    }

    @Test
    void aMissingAddressStopsTheStartAndSaysWhichVariableToSet() {
        Config onlyPayments = config(Map.of("quarkus.rest-client.payment-provider.url", "https://pay.example"));

        assertThatThrownBy(() -> ProviderAddresses.require(onlyPayments)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("quarkus.rest-client.warehouse.url (QUARKUS_REST_CLIENT_WAREHOUSE_URL)")
                .hasMessageNotContaining("payment-provider");
    }

    @Test
    void bothAddressesSetLetItStart() {
        assertThatCode(() -> ProviderAddresses.require(config(Map.of("quarkus.rest-client.payment-provider.url", "https://pay.example",
                "quarkus.rest-client.warehouse.url", "https://ship.example")))).doesNotThrowAnyException();
    }

    @Test
    void aCommandsRunNeedsNoAddress() {
        assertThatCode(() -> ProviderAddresses.require(config(Map.of("quarkus.http.host-enabled", "false")))).doesNotThrowAnyException();
    }
}
