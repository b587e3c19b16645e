package io.orderflow.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.orderflow.shared.json.Fingerprint;
import io.orderflow.support.FastTest;

/** Which order requests an order token counts as the same, and the fingerprints orders were stored with before. */
@FastTest
class NewOrderTest {

    /** What version 1 stored for {@link io.orderflow.support.Api#ORDER}. */
    static final String ORDER_VERSION_1 = "c6b5315026ab53d305215e11da1b1ce7258e7a05249061824dd45fedd8d8d29e";

    @Test
    void aPriceIsOnePriceAtAnyScale() {
        assertThat(order(2, "12.50").value()).isEqualTo(order(2, "12.5").value()).isNotEqualTo(order(2, "12.51").value());
        assertThat(order(2, "12.50").value()).isNotEqualTo(order(3, "12.50").value()).isNotEqualTo(order(2, null).value());
    }

    @Test
    void aFingerprintStoredByVersion1StillMatchesTheSameOrderOnly() {
        Fingerprint order = order(2, "12.50");

        assertThat(order.value()).hasSize(64).isNotEqualTo(ORDER_VERSION_1);
        assertThat(order.matches(ORDER_VERSION_1)).isTrue();
        assertThat(order.matches(order.value())).isTrue();
        assertThat(order(2, null).matches("7b5c343540f4e502eb85ab5abf17770a68519a0674878662012c508c2b4c0ce9"))
                .as("what version 1 stored for the same order without its unit price").isTrue();
        assertThat(order(3, "12.50").matches(ORDER_VERSION_1)).isFalse();
        assertThat(order(2, null).matches(ORDER_VERSION_1)).isFalse();
    }

    /** ABC-1 in CNY, as the validator makes it: the stated price at the currency's scale. */
    private static Fingerprint order(int quantity, String unitPrice) {
        BigDecimal price = unitPrice == null ? null : new BigDecimal(unitPrice).setScale(2);
        return NewOrder.of("CNY", List.of(new NewOrder.Line("ABC-1", quantity, price)), null).fingerprint();
    }
}
