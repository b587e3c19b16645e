package io.orderflow.payment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.orderflow.payment.RetryWaits.Reason;
import io.orderflow.payment.RetryWaits.Wait;
import io.orderflow.support.FastTest;

/** The waits between attempts at the payment provider, exactly: backoff, Retry-After, and the call's budget. */
@FastTest
class RetryWaitsTest {

    private static final int DRAWS = 1_000;
    private final RetryWaits waits = new RetryWaits(100, 1_600, 20_000);

    @Test
    void eachRetryWaitsBetweenHalfAndAllOfTheDoubledDelayUpToTheCap() {
        for (int retry = 0; retry < 8; retry++) {
            long ceiling = Math.min(1_600, 100L << retry);
            for (int i = 0; i < DRAWS; i++) {
                Wait wait = waits.next(retry, null, 0);
                assertThat(wait.reason()).isEqualTo(Reason.BACKOFF);
                assertThat(wait.millis()).as("wait before retry %d", retry + 1).isBetween(ceiling / 2, ceiling);
            }
        }
    }

    @Test
    void aProvidersRetryAfterIsObeyedWithinTheCap() {
        assertThat(waits.next(0, Duration.ofMillis(700), 0)).isEqualTo(new Wait(700, Reason.RETRY_AFTER));
        assertThat(waits.next(0, Duration.ofSeconds(30), 0)).isEqualTo(new Wait(1_600, Reason.RETRY_AFTER));
        assertThat(waits.next(3, Duration.ZERO, 0)).isEqualTo(new Wait(0, Reason.RETRY_AFTER));
    }

    @Test
    void noWaitOutlastsTheCallsBudget() {
        assertThat(waits.next(0, Duration.ofSeconds(1), 19_700)).isEqualTo(new Wait(300, Reason.BUDGET));
        assertThat(waits.next(6, null, 19_990)).isEqualTo(new Wait(10, Reason.BUDGET));
        assertThat(waits.next(6, null, 25_000)).isEqualTo(new Wait(0, Reason.BUDGET));
    }
}
