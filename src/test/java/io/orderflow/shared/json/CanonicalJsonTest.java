package io.orderflow.shared.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** One JSON meaning, one text: what both fingerprints hash. */
@FastTest
class CanonicalJsonTest {

    private static final String CANONICAL = """
            {"currency":"CNY","items":[{"quantity":2,"sku":"ABC-1","unitPrice":12.5}]}""";

    @Test
    void membersAreSortedAndWhitespaceDropped() {
        assertThat(read("""
                {
                  "items": [ { "unitPrice": 12.5, "sku": "ABC-1", "quantity": 2 } ],
                  "currency": "CNY"
                }""")).isEqualTo(CANONICAL);
    }

    @Test
    void anAmountIsWrittenByValueWhetherNumberOrDecimalString() {
        assertThat(read("""
                {"currency":"CNY","items":[{"sku":"ABC-1","quantity":2,"unitPrice":"12.50"}]}""")).isEqualTo(CANONICAL);
        assertThat(read("""
                {"currency":"CNY","items":[{"sku":"ABC-1","quantity":2,"unitPrice":12.500}]}""")).isEqualTo(CANONICAL);
        assertThat(read("{\"amount\":1.0E+2}")).isEqualTo("{\"amount\":100}");
        assertThat(read("{\"sku\":\"12.50\"}")).as("text that is no amount").isEqualTo("{\"sku\":\"12.50\"}");
    }

    @Test
    void aValueIsWrittenAsTheSameTextWouldBe() {
        Map<String, Object> order = Map.of("items", List.of(Map.of("unitPrice", new BigDecimal("12.50"), "sku", "ABC-1", "quantity", 2)),
                "currency", "CNY");

        assertThat(CanonicalJson.write(order)).isEqualTo(CANONICAL);
    }

    @Test
    void bytesThatAreNotJsonHaveNoCanonicalForm() {
        assertThat(CanonicalJson.of("currency=CNY".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(CanonicalJson.of("{\"quantity\":1e-9999999999}".getBytes(StandardCharsets.UTF_8))).isEmpty();
    }

    private static String read(String json) {
        return CanonicalJson.of(json.getBytes(StandardCharsets.UTF_8)).orElseThrow();
    }
}
