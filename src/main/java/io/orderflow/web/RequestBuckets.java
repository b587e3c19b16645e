package io.orderflow.web;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;

/**
 * The requests this instance has answered so far, counted into the buckets of their times
 * ({@code http_server_requests_seconds_bucket}, shared.metrics.RequestLatencyBuckets), summed over every endpoint and
 * status: cumulative counts, each of the requests no slower than its bound, the last bound infinite (every request).
 * Two of them a minute apart give that minute's percentiles.
 */
record RequestBuckets(double[] boundsMillis, double[] counts) {

    /** The buckets of these timers (each with the same bounds), summed. */
    static RequestBuckets of(Collection<Timer> timers) {
        Map<Double, Double> byBound = new TreeMap<>();
        for (Timer timer : timers) {
            for (CountAtBucket bucket : timer.takeSnapshot().histogramCounts()) {
                // The infinite bound, where a registry lists it, is the timer's count, taken below.
                if (!Double.isInfinite(bucket.bucket())) {
                    byBound.merge(bucket.bucket(TimeUnit.MILLISECONDS), bucket.count(), Double::sum);
                }
            }
            byBound.merge(Double.POSITIVE_INFINITY, (double) timer.count(), Double::sum);
        }
        return new RequestBuckets(byBound.keySet().stream().mapToDouble(Double::doubleValue).toArray(),
                byBound.values().stream().mapToDouble(Double::doubleValue).toArray());
    }

    /**
     * The {@code q} quantile, in ms, of the requests counted since {@code before}, estimated as Prometheus's
     * histogram_quantile does: linearly within the bucket it falls in, and the highest finite bound when it falls beyond.
     * Null when no request came, or the counts do not follow on from {@code before} (other bounds, counts restarted).
     */
    Double quantileSince(RequestBuckets before, double q) {
        int buckets = counts.length;
        if (buckets < 2 || before.counts.length != buckets || counts[buckets - 1] - before.counts[buckets - 1] <= 0) {
            return null;
        }
        double[] since = new double[buckets];
        for (int i = 0; i < buckets; i++) {
            since[i] = counts[i] - before.counts[i];
            if (since[i] < 0 || boundsMillis[i] != before.boundsMillis[i]) {
                return null;
            }
        }
        double rank = q * since[buckets - 1];
        int at = 0;
        while (since[at] < rank) {
            at++;
        }
        if (at == buckets - 1) {
            return boundsMillis[buckets - 2];
        }
        double lower = at == 0 ? 0 : boundsMillis[at - 1];
        double countBelow = at == 0 ? 0 : since[at - 1];
        return lower + (boundsMillis[at] - lower) * (rank - countBelow) / (since[at] - countBelow);
    }
}
