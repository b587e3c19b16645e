package io.orderflow.shared.downstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** A provider's Retry-After, in seconds or as an HTTP date (RFC 9110). */
@FastTest
class DownstreamErrorsTest {

    @Test
    void secondsAreReadAsAWait() {
        assertThat(DownstreamErrors.retryAfter("120")).isEqualTo(Duration.ofSeconds(120));
        assertThat(DownstreamErrors.retryAfter(" 3 ")).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aNegativeWaitOrADateInThePastMeansAtOnce() {
        assertThat(DownstreamErrors.retryAfter("-5")).isEqualTo(Duration.ZERO);
        assertThat(DownstreamErrors.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT")).isEqualTo(Duration.ZERO);
    }

    @Test
    void aDateInTheFutureIsTheTimeLeftUntilIt() {
        String inAMinute = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(60));

        assertThat(DownstreamErrors.retryAfter(inAMinute)).isBetween(Duration.ofSeconds(55), Duration.ofSeconds(60));
    }

    @Test
    void anAbsentOrUnreadableValueIsNoWaitAtAll() {
        assertThat(DownstreamErrors.retryAfter(null)).isNull();
        assertThat(DownstreamErrors.retryAfter(" ")).isNull();
        assertThat(DownstreamErrors.retryAfter("soon")).isNull();
        assertThat(DownstreamErrors.retryAfter("1.5")).isNull();
    }
}
