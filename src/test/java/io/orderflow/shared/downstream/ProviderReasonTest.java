package io.orderflow.shared.downstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** The reason a provider gives for a refusal, as staff read it: short, on one line, and only from JSON. */
@FastTest
class ProviderReasonTest {

    @Test
    void aCardApiErrorIsItsCodeAndMessage() {
        assertThat(reasonIn("{\"error\":{\"type\":\"invalid_request_error\",\"code\":\"charge_already_refunded\","
                + "\"message\":\"Charge ch_x has already been refunded.\"}}"))
                .isEqualTo("charge_already_refunded: Charge ch_x has already been refunded.");
    }

    @Test
    void theSandboxGivesItsReason() {
        assertThat(reasonIn("{\"status\":\"rejected\",\"reason\":\"a refund names the charge it gives back\"}"))
                .isEqualTo("a refund names the charge it gives back");
    }

    @Test
    void aProblemDetailGivesItsTitleAndDetail() {
        assertThat(reasonIn("{\"type\":\"about:blank\",\"title\":\"Charge too old\",\"detail\":\"Charges older than 180 days cannot be refunded.\"}"))
                .isEqualTo("Charge too old: Charges older than 180 days cannot be refunded.");
    }

    @Test
    void aLongReasonIsCutAndKeptOnOneLine() {
        String reason = reasonIn("{\"error\":{\"message\":\"first line\\nsecond\\tline " + "x".repeat(1000) + "\"}}");

        assertThat(reason).startsWith("first line second line x").hasSize(ProviderReason.MAX_LENGTH).endsWith("…").doesNotContain("\n");
    }

    @Test
    void aBodyThatIsNotJsonOrSaysNothingGivesNoReason() {
        assertThat(reasonIn("<html><body>Bad Request</body></html>")).isNull();
        assertThat(reasonIn("java.lang.IllegalStateException: boom\n\tat com.example.Refunds.refund(Refunds.java:12)")).isNull();
        assertThat(reasonIn("")).isNull();
        assertThat(reasonIn("[\"refused\"]")).isNull();
        assertThat(reasonIn("{\"status\":\"refused\"}")).isNull();
        assertThat(reasonIn("{\"error\":{\"code\":42}}")).isNull();
    }

    private static String reasonIn(String body) {
        return ProviderReason.of(body.getBytes(StandardCharsets.UTF_8));
    }
}
