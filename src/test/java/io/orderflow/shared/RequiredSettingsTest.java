package io.orderflow.shared;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * A production deployment without the providers' addresses, or without the issuer and key that verify
 * bearer tokens, does not start serving, and says which variable to set; a command's run needs none.
 */
@FastTest
class RequiredSettingsTest {

    private static final Map<String, String> COMPLETE = Map.of("quarkus.rest-client.payment-provider.url", "https://pay.example",
            "quarkus.rest-client.warehouse.url", "https://ship.example", "mp.jwt.verify.issuer", "https://idp.example",
            "mp.jwt.verify.publickey.location", "https://idp.example/jwks.json");

    private static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(properties, "test", 100)).build();
    }

    private static Config without(String... names) {
        Map<String, String> properties = new HashMap<>(COMPLETE);
        for (String name : names) {
            properties.remove(name);
        }
        return config(properties);
    }

    @Test
    void aMissingAddressStopsTheStartAndSaysWhichVariableToSet() {
        assertThatThrownBy(() -> RequiredSettings.require(without("quarkus.rest-client.warehouse.url"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("quarkus.rest-client.warehouse.url (QUARKUS_REST_CLIENT_WAREHOUSE_URL)")
                .hasMessageNotContaining("payment-provider").hasMessageNotContaining("jwt");
    }

    @Test
    void noIssuerOrNoKeyForBearerTokensStopsTheStart() {
        assertThatThrownBy(() -> RequiredSettings.require(without("mp.jwt.verify.issuer"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("mp.jwt.verify.issuer (MP_JWT_VERIFY_ISSUER)").hasMessageNotContaining("publickey");
        assertThatThrownBy(() -> RequiredSettings.require(without("mp.jwt.verify.publickey.location"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("mp.jwt.verify.publickey.location (MP_JWT_VERIFY_PUBLICKEY_LOCATION) or mp.jwt.verify.publickey (MP_JWT_VERIFY_PUBLICKEY)")
                .hasMessageNotContaining("issuer");
    }

    @Test
    void everySettingGivenLetsItStartWhicheverNameTheKeyHas() {
        assertThatCode(() -> RequiredSettings.require(config(COMPLETE))).doesNotThrowAnyException();
        Map<String, String> inlineKey = new HashMap<>(COMPLETE);
        inlineKey.remove("mp.jwt.verify.publickey.location");
        inlineKey.put("mp.jwt.verify.publickey", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA");
        assertThatCode(() -> RequiredSettings.require(config(inlineKey))).doesNotThrowAnyException();
    }

    @Test
    void aCommandsRunNeedsNone() {
        assertThatCode(() -> RequiredSettings.require(config(Map.of("quarkus.http.host-enabled", "false")))).doesNotThrowAnyException();
    }
}
