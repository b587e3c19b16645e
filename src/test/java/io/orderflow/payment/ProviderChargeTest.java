package io.orderflow.payment;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

import io.orderflow.payment.ProviderCharge.NextAction;
import io.orderflow.payment.ProviderCharge.Reading;
import io.orderflow.support.FastTest;

/** A provider's answer read strictly: only a charge that succeeded for the amount and currency asked for is one. */
@FastTest
class ProviderChargeTest {

    private static final BigDecimal ASKED = new BigDecimal("12.50");

    @Test
    void aSuccessCountsOnlyForTheAmountAndCurrencyAskedFor() {
        assertThat(answer("succeeded", "12.5", "CNY").readFor(ASKED, "CNY")).isEqualTo(Reading.SUCCEEDED);
        assertThat(answer("succeeded", "12.50", "cny").readFor(ASKED, "CNY")).as("providers write currencies in lower case").isEqualTo(Reading.SUCCEEDED);
        assertThat(answer("succeeded", "12.49", "CNY").readFor(ASKED, "CNY")).isEqualTo(Reading.WRONG_AMOUNT);
        assertThat(answer("succeeded", "12.50", "EUR").readFor(ASKED, "CNY")).isEqualTo(Reading.WRONG_AMOUNT);
        assertThat(answer("succeeded", "1250", "CNY").readFor(ASKED, "CNY")).as("minor units are not this API's amounts").isEqualTo(Reading.WRONG_AMOUNT);
        assertThat(answer("succeeded", null, "CNY").readFor(ASKED, "CNY")).isEqualTo(Reading.WRONG_AMOUNT);
        assertThat(answer("succeeded", "twelve", "CNY").readFor(ASKED, "CNY")).isEqualTo(Reading.WRONG_AMOUNT);
        assertThat(new ProviderCharge("k", null, "succeeded", null, "12.50", "CNY", null, null, null).readFor(ASKED, "CNY"))
                .as("a success without a reference cannot be recorded or refunded").isEqualTo(Reading.UNKNOWN);
    }

    @Test
    void whatIsNotASuccessIsNeverACharge() {
        for (String status : new String[] { "declined", "failed", "voided", "canceled", "Cancelled" }) {
            assertThat(answer(status, "12.50", "CNY").readFor(ASKED, "CNY")).as(status).isEqualTo(Reading.NOT_CHARGED);
        }
        for (String status : new String[] { "processing", "pending", "requires_capture", "", "SUCCEEDED?" }) {
            assertThat(answer(status, "12.50", "CNY").readFor(ASKED, "CNY")).as(status).isEqualTo(Reading.UNKNOWN);
        }
        assertThat(answer(null, "12.50", "CNY").readFor(ASKED, "CNY")).isEqualTo(Reading.UNKNOWN);
        assertThat(answer("requires_action", "12.50", "CNY").readFor(ASKED, "CNY")).as("no address to send the customer to")
                .isEqualTo(Reading.UNKNOWN);
        assertThat(new ProviderCharge("k", "ch_1", "requires_action", null, "12.50", "CNY", null, new NextAction("redirect", "https://bank/3ds"), null)
                .readFor(ASKED, "CNY")).isEqualTo(Reading.REQUIRES_ACTION);
    }

    private static ProviderCharge answer(String status, String amount, String currency) {
        return new ProviderCharge("payment:x:1", "ch_1", status, null, amount, currency, null, null, null);
    }
}
