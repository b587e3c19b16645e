package io.orderflow.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** The health page's charts: scaling to the plot, gaps, the ring of the last hour's samples and the p99 of a minute's requests. */
@FastTest
class SparklineTest {

    @Test
    void theNewestPointIsAtTheRightAndTheTopIsAPlainRoundFigure() {
        Sparkline line = Sparkline.of(List.of(0.0, 3.0, 7.0), null);

        assertThat(line.top()).isEqualTo(10);
        assertThat(line.topLabel()).isEqualTo("10");
        // Three minutes of sixty: the last three slots, 0 at the bottom, 7 of 10 most of the way up.
        assertThat(line.segments()).containsExactly("300.8,80.0 305.4,59.0 310.0,31.0");
        assertThat(line.latest()).isEqualTo(7.0);
        assertThat(line.highest()).isEqualTo(7.0);
        assertThat(line.lowest()).isEqualTo(0.0);
    }

    @Test
    void aFullHourSpansThePlotAndAFixedTopHoldsAboveIt() {
        List<Double> hour = IntStream.range(0, 70).mapToObj(minute -> 50.0).toList();
        Sparkline line = Sparkline.of(hour, 100.0);

        assertThat(line.values()).hasSize(Sparkline.SLOTS);
        String[] points = line.segments().get(0).split(" ");
        assertThat(points).hasSize(Sparkline.SLOTS);
        assertThat(points[0]).isEqualTo("40.0,45.0");
        assertThat(points[Sparkline.SLOTS - 1]).isEqualTo("310.0,45.0");
        assertThat(Sparkline.of(List.of(250.0), 100.0).segments()).as("drawn at the top, not above it").containsExactly("310.0,10.0 310.0,10.0");
    }

    @Test
    void aMinuteWithoutAFigureBreaksTheLineAndALonePointShowsAsADot() {
        Sparkline line = Sparkline.of(Arrays.asList(1.0, null, 2.0, 2.0, null), null);

        assertThat(line.top()).isEqualTo(2);
        assertThat(line.segments()).hasSize(2);
        assertThat(line.segments().get(0).split(" ")).hasSize(2).allMatch(point -> point.equals(line.segments().get(0).split(" ")[0]));
        assertThat(line.latest()).isNull();
        assertThat(Sparkline.of(List.of(), null).segments()).isEmpty();
        assertThat(Sparkline.of(List.of(), null).highest()).isNull();
    }

    @Test
    void theTopIsOneTwoOrFiveTimesAPowerOfTen() {
        assertThat(Sparkline.roundUp(0)).isEqualTo(1);
        assertThat(Sparkline.roundUp(0.4)).isEqualTo(1);
        assertThat(Sparkline.roundUp(1.5)).isEqualTo(2);
        assertThat(Sparkline.roundUp(20)).isEqualTo(20);
        assertThat(Sparkline.roundUp(21)).isEqualTo(50);
        assertThat(Sparkline.roundUp(501)).isEqualTo(1000);
        assertThat(Sparkline.figure(12)).isEqualTo("12");
        assertThat(Sparkline.figure(12.345)).isEqualTo("12.3");
        assertThat(Sparkline.figure(0.04)).isEqualTo("0");
    }

    @Test
    void theRingKeepsTheLastHourOldestFirst() {
        MinuteRing ring = new MinuteRing(3);
        assertThat(ring.samples()).isEmpty();
        ring.add(1.0);
        ring.add(null);
        assertThat(ring.samples()).containsExactly(1.0, null);
        ring.add(3.0);
        ring.add(4.0);
        ring.add(5.0);
        assertThat(ring.samples()).containsExactly(3.0, 4.0, 5.0);
    }

    @Test
    void theP99OfAMinuteIsEstimatedWithinItsBucketAsPrometheusDoes() {
        double[] bounds = { 5, 10, 25, Double.POSITIVE_INFINITY };
        RequestBuckets before = new RequestBuckets(bounds, new double[] { 100, 100, 100, 100 });
        // 100 requests in the minute: 90 within 5 ms, 9 more within 10 ms, the last within 25 ms.
        RequestBuckets after = new RequestBuckets(bounds, new double[] { 190, 199, 200, 200 });
        assertThat(after.quantileSince(before, 0.99)).isEqualTo(10.0);
        assertThat(after.quantileSince(before, 0.5)).isCloseTo(50 / 90.0 * 5, offset(1e-9));
        assertThat(new RequestBuckets(bounds, new double[] { 190, 199, 199, 200 }).quantileSince(before, 0.999))
                .as("beyond the last bound: the last bound").isEqualTo(25.0);
        assertThat(before.quantileSince(before, 0.99)).as("no request").isNull();
        assertThat(before.quantileSince(after, 0.99)).as("counts restarted").isNull();
    }
}
