package io.orderflow.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Which request bodies count as the same request for an Idempotency-Key. */
@Tag("fast")
class RequestFingerprintTest {

    @Test
    void anAmountIsOneAmountHoweverItIsSpelled() {
        String asText = fingerprint("""
                {"currency":"CNY","items":[{"sku":"ABC-1","quantity":2,"unitPrice":"12.50"}]}""");

        assertThat(fingerprint("""
                {"currency":"CNY","items":[{"sku":"ABC-1","quantity":2,"unitPrice":"12.5"}]}""")).isEqualTo(asText);
        assertThat(fingerprint("""
                {"currency":"CNY","items":[{"sku":"ABC-1","quantity":2,"unitPrice":12.5}]}""")).isEqualTo(asText);
        assertThat(fingerprint("""
                {"currency":"CNY","items":[{"sku":"ABC-1","quantity":2,"unitPrice":12.500}]}""")).isEqualTo(asText);
        assertThat(fingerprint("""
                {"currency":"CNY","items":[{"sku":"ABC-1","quantity":2,"unitPrice":"12.51"}]}""")).isNotEqualTo(asText);
    }

    @Test
    void wholeAmountsAreOneAmountToo() {
        assertThat(fingerprint("{\"amount\":\"100.00\"}"))
                .isEqualTo(fingerprint("{\"amount\":100}"))
                .isEqualTo(fingerprint("{\"amount\":\"100\"}"));
    }

    @Test
    void textThatIsNotAnAmountIsComparedAsWritten() {
        assertThat(fingerprint("""
                {"currency":"CNY","items":[{"sku":"12.5","quantity":2}]}"""))
                .isNotEqualTo(fingerprint("""
                        {"currency":"CNY","items":[{"sku":"12.50","quantity":2}]}"""));
        assertThat(fingerprint("{\"unitPrice\":\"12.50 CNY\"}")).isNotEqualTo(fingerprint("{\"unitPrice\":\"12.5 CNY\"}"));
    }

    @Test
    void memberOrderAndWhitespaceDoNotMatter() {
        assertThat(fingerprint("""
                {
                  "items": [ { "unitPrice": "12.50", "quantity": 2, "sku": "ABC-1" } ],
                  "currency": "CNY"
                }"""))
                .isEqualTo(fingerprint("""
                        {"currency":"CNY","items":[{"sku":"ABC-1","quantity":2,"unitPrice":"12.5"}]}"""));
    }

    @Test
    void methodPathAndItemOrderDo() {
        String body = """
                {"items":[{"sku":"A","quantity":1},{"sku":"B","quantity":1}]}""";
        String fingerprint = fingerprint(body);

        assertThat(RequestFingerprint.of("POST", "/orders/token", bytes(body))).isNotEqualTo(fingerprint);
        assertThat(fingerprint("""
                {"items":[{"sku":"B","quantity":1},{"sku":"A","quantity":1}]}""")).isNotEqualTo(fingerprint);
    }

    @Test
    void aNumberBeyondAnyDecimalIsComparedAsWritten() {
        String tiny = fingerprint("{\"quantity\":1e-9999999999}");

        assertThat(tiny).isEqualTo(fingerprint("{\"quantity\":1e-9999999999}"));
        assertThat(fingerprint("{\"quantity\":1e9999999999}")).isNotEqualTo(tiny);
    }

    private static String fingerprint(String body) {
        return RequestFingerprint.of("POST", "/orders", bytes(body));
    }

    private static byte[] bytes(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }
}
