package io.orderflow.shared.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** Amounts in a currency's minor units. */
@FastTest
class MoneyTest {

    @Test
    void aCurrencyHasTheMinorDigitsOfIso4217() {
        assertThat(Money.minorDigits("CNY")).isEqualTo(2);
        assertThat(Money.minorDigits("JPY")).isZero();
        assertThat(Money.minorDigits("BHD")).isEqualTo(3);
    }

    @Test
    void anAmountIsExactWhenItNeedsNoMoreDecimalsThanItsCurrencyHas() {
        assertThat(Money.isExact(new BigDecimal("12.50"), "CNY")).isTrue();
        assertThat(Money.isExact(new BigDecimal("12.500000"), "CNY")).isTrue();
        assertThat(Money.isExact(new BigDecimal("12.505"), "CNY")).isFalse();
        assertThat(Money.isExact(new BigDecimal("100"), "JPY")).isTrue();
        assertThat(Money.isExact(new BigDecimal("100.5"), "JPY")).isFalse();
    }

    @Test
    void anExactAmountIsWrittenAtItsCurrencysScale() {
        assertThat(Money.format(new BigDecimal("12.5"), "CNY")).isEqualTo("12.50");
        assertThat(Money.format(new BigDecimal("1E+2"), "CNY")).isEqualTo("100.00");
        assertThat(Money.format(new BigDecimal("100.000"), "JPY")).isEqualTo("100");
    }

    @Test
    void anInexactAmountIsNeverRoundedQuietly() {
        assertThatThrownBy(() -> Money.normalize(new BigDecimal("12.505"), "CNY")).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void anAmountInTextIsDigitsWithAnOptionalFractionAndNoSignOrExponent() {
        assertThat(Money.DECIMAL.matcher("12.50").matches()).isTrue();
        assertThat(Money.DECIMAL.matcher("0").matches()).isTrue();
        assertThat(Money.DECIMAL.matcher("-1").matches()).isFalse();
        assertThat(Money.DECIMAL.matcher("+1").matches()).isFalse();
        assertThat(Money.DECIMAL.matcher("1e3").matches()).isFalse();
        assertThat(Money.DECIMAL.matcher("1.").matches()).isFalse();
        assertThat(Money.DECIMAL.matcher(".5").matches()).isFalse();
        assertThat(Money.DECIMAL.matcher("12345678901234567").matches()).isFalse();
    }
}
