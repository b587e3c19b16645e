package io.orderflow.proof.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.util.function.DoubleUnaryOperator;

import org.junit.jupiter.api.Test;

import io.orderflow.proof.faults.SoakSeries.Kind;
import io.orderflow.proof.faults.SoakSeries.Verdict;
import io.orderflow.proof.faults.SoakSeries.Windows;
import io.orderflow.support.FastTest;

/** The soak's verdicts on series shaped as the hour's were, and on the leaks it must catch. */
@FastTest
class SoakSeriesTest {

    private static final double MINUTE = 60;
    /** An hour's soak: levels judged from minute 20 by their peaks over the 10-minute retention; p99 by minutes 5–15 against 50–60. */
    private static final Windows HOUR = new Windows(20 * MINUTE, 10 * MINUTE, 5 * MINUTE, 15 * MINUTE, 50 * MINUTE);

    @Test
    void aPurgedTableThatFillsForItsRetentionThenDipsWhenVacuumCutsItsTailIsFlat() {
        // As order_notifications on 2c8921e: up to 13.7 MB in 10 minutes, a fifth cut off at minute 22, refilled by 24.
        Verdict verdict = level("table", SoakIT.PAGES_OF_GRAIN, minutes -> minutes < 10 ? 3.5 + minutes * 1.02 : minutes >= 22 && minutes < 24 ? 11.8 : 13.7)
                .judge(HOUR);

        assertThat(verdict.flat()).as("%s", verdict).isTrue();
        assertThat(verdict.slopePerHour()).isZero();
    }

    @Test
    void aTableThatIsNotPurgedGrowsThroughItsDips() {
        // 1.5 MB an hour on 14 MB doubles it in under a day, dips or none.
        Verdict verdict = level("table", SoakIT.PAGES_OF_GRAIN, minutes -> 14 + minutes * 1.5 / 60 - (minutes % 10 < 2 ? 2 : 0)).judge(HOUR);

        assertThat(verdict.flat()).as("%s", verdict).isFalse();
        assertThat(verdict.slopePerHour()).isCloseTo(1.5, offset(0.1));
        assertThat(verdict.daysToDouble()).isLessThan(1);
    }

    @Test
    void aPoolThatFollowsTheLoadsBusiestMomentsByAConnectionOrTwoIsFlat() {
        // As on 2c8921e: 20 after the closed loop, then 9 to 12 with the load's moments.
        Verdict verdict = level("pg_connections", SoakIT.CONNECTIONS_OF_GRAIN, minutes -> minutes < 7 ? 20 : minutes >= 43 && minutes < 50 ? 12 : minutes >= 50 ? 11 : 10)
                .judge(HOUR);

        assertThat(verdict.flat()).as("%s", verdict).isTrue();
        assertThat(verdict.slopePerHour()).as("the peaks rose").isPositive();
    }

    @Test
    void connectionsThatAreNeverClosedAreGrowth() {
        // One more every five minutes: 8 more over the judged window, on its way to the pool's 32.
        Verdict verdict = level("pg_connections", SoakIT.CONNECTIONS_OF_GRAIN, minutes -> 10 + Math.floor(minutes / 5)).judge(HOUR);

        assertThat(verdict.flat()).as("%s", verdict).isFalse();
    }

    @Test
    void aLatencyIsJudgedByItsDriftNotItsPeaks() {
        Verdict steady = latency(minutes -> minutes % 7 == 0 ? 90 : 30).judge(HOUR);
        Verdict slowing = latency(minutes -> 30 + minutes * 0.5).judge(HOUR);

        assertThat(steady.flat()).as("%s", steady).isTrue();
        assertThat(steady.drift()).isZero();
        assertThat(slowing.flat()).as("%s", slowing).isFalse();
        assertThat(slowing.drift()).isGreaterThan(SoakSeries.MOST_DRIFT);
    }

    /** Sampled every 10 s for an hour, the value a function of the minutes since the start. */
    private static SoakSeries level(String name, double grain, DoubleUnaryOperator valueAtMinute) {
        return sampled(new SoakSeries(name, Kind.LEVEL, grain), valueAtMinute);
    }

    private static SoakSeries latency(DoubleUnaryOperator valueAtMinute) {
        return sampled(new SoakSeries("p99", Kind.LATENCY), valueAtMinute);
    }

    private static SoakSeries sampled(SoakSeries series, DoubleUnaryOperator valueAtMinute) {
        for (int seconds = 10; seconds <= 60 * MINUTE; seconds += 10) {
            series.add(seconds, valueAtMinute.applyAsDouble(seconds / MINUTE));
        }
        return series;
    }
}
