package io.orderflow.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.orderflow.shared.json.Fingerprint;
import io.orderflow.support.FastTest;

/** Which request bodies count as the same request for an Idempotency-Key. */
@FastTest
class RequestFingerprintTest {

    /** What version 1 kept for {@code POST /orders} with {@link io.orderflow.support.Api#ORDER}, and for {@code POST /orders/token}. */
    static final String ORDER_VERSION_1 = "e0357ed60169fc83578360602fa4a67f8caa4953a8b73e44224a55394cbd56b0";
    private static final String TOKEN_VERSION_1 = "98805bb9a1956a2638249fe76b3d77f3977771cbb4b7a13cd9719f1b5f3b5c9a";

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

        assertThat(RequestFingerprint.of("POST", "/orders/token", bytes(body)).value()).isNotEqualTo(fingerprint);
        assertThat(fingerprint("""
                {"items":[{"sku":"B","quantity":1},{"sku":"A","quantity":1}]}""")).isNotEqualTo(fingerprint);
    }

    @Test
    void aNumberBeyondAnyDecimalIsComparedAsWritten() {
        String tiny = fingerprint("{\"quantity\":1e-9999999999}");

        assertThat(tiny).isEqualTo(fingerprint("{\"quantity\":1e-9999999999}"));
        assertThat(fingerprint("{\"quantity\":1e9999999999}")).isNotEqualTo(tiny);
    }

    @Test
    void aFingerprintKeptByVersion1StillMatchesTheSameRequestOnly() {
        Fingerprint order = RequestFingerprint.of("POST", "/orders", bytes("""
                {"items":[{"unitPrice":12.5,"sku":"ABC-1","quantity":2}],"currency":"CNY"}"""));

        assertThat(order.value()).hasSize(64).isNotEqualTo(ORDER_VERSION_1);
        assertThat(order.matches(ORDER_VERSION_1)).isTrue();
        assertThat(order.matches(order.value())).isTrue();
        assertThat(RequestFingerprint.of("POST", "/orders/token", new byte[0]).matches(TOKEN_VERSION_1)).isTrue();
        assertThat(RequestFingerprint.of("POST", "/orders", bytes("""
                {"currency":"CNY","items":[{"sku":"ABC-1","quantity":3,"unitPrice":"12.50"}]}""")).matches(ORDER_VERSION_1)).isFalse();
        assertThat(RequestFingerprint.of("POST", "/orders/token", new byte[0]).matches(ORDER_VERSION_1)).isFalse();
    }

    private static String fingerprint(String body) {
        return RequestFingerprint.of("POST", "/orders", bytes(body)).value();
    }

    private static byte[] bytes(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }
}
