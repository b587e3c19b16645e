package io.orderflow.proof.faults;

import java.util.ArrayList;
import java.util.List;

/**
 * One measure of the soak, sampled every few seconds, and whether it stayed flat: a level (memory, threads, connections,
 * keys, a table's size) must not grow at a pace that would double it within a day over the judged window, by more than its
 * grain; a latency must not drift by more than half between the window after the warm-up and the last one.
 * <p>
 * A level is judged by its peaks: the highest value of the cycle before each sample. What is freed in rounds moves in a
 * sawtooth (the heap between collections, the pool's connections closed after their idle time, a purged table whose rows
 * go from its front and whose empty tail vacuum cuts off now and then), and where the judged window starts or ends on a
 * trough the slope says more about the phase than about growth. A leak raises the peaks as it raises everything else.
 */
final class SoakSeries {

    enum Kind {
        LEVEL, LATENCY
    }

    /** A day in seconds: a level whose growth over the judged window would double it within this grows without bound. */
    static final double DAY = 86_400;
    /** The most a latency may drift from its first window to its last. */
    static final double MOST_DRIFT = 0.5;

    /**
     * The verdict on one series: its slope per hour; for a level the days it would take to double (infinite when it does not
     * grow), for a latency its drift.
     */
    record Verdict(String name, Kind kind, double first, double last, double slopePerHour, double daysToDouble, double drift, boolean flat) {
    }

    final String name;
    final Kind kind;
    /** The least rise over the judged window that counts as growth: the measure's own grain. */
    private final double grain;
    private final List<double[]> points = new ArrayList<>();

    SoakSeries(String name, Kind kind) {
        this(name, kind, 0);
    }

    SoakSeries(String name, Kind kind, double grain) {
        this.name = name;
        this.kind = kind;
        this.grain = grain;
    }

    void add(double seconds, double value) {
        if (!Double.isNaN(value)) {
            points.add(new double[] { seconds, value });
        }
    }

    /** The value at a time, NaN when none was sampled then. */
    double at(double seconds) {
        return points.stream().filter(point -> point[0] == seconds).mapToDouble(point -> point[1]).findFirst().orElse(Double.NaN);
    }

    /**
     * The times, in seconds from the start, a series is judged by: levels by their peaks over each {@code cycle} from
     * {@code judgedFrom} on; latencies by the window after the warm-up, from {@code firstFrom} to {@code firstTo}, against the
     * last one, from {@code lastFrom} on.
     */
    record Windows(double judgedFrom, double cycle, double firstFrom, double firstTo, double lastFrom) {
    }

    /**
     * Judges a level by the least-squares slope of its peaks from the judged window's start on, a latency by the median of
     * its samples in the last window against their median in the window after the warm-up.
     */
    Verdict judge(Windows windows) {
        double first = points.isEmpty() ? Double.NaN : points.get(0)[1];
        double last = points.isEmpty() ? Double.NaN : points.get(points.size() - 1)[1];
        List<double[]> judged = kind == Kind.LEVEL ? peaks(windows.judgedFrom(), windows.cycle())
                : points.stream().filter(point -> point[0] >= windows.judgedFrom()).toList();
        double slope = slope(judged);
        double mean = judged.stream().mapToDouble(point -> point[1]).average().orElse(Double.NaN);
        double daysToDouble = slope > 0 ? mean / (slope * DAY) : Double.POSITIVE_INFINITY;
        if (kind == Kind.LEVEL) {
            double rise = judged.isEmpty() ? 0 : slope * (judged.get(judged.size() - 1)[0] - judged.get(0)[0]);
            return new Verdict(name, kind, first, last, slope * 3600, daysToDouble, Double.NaN, !(daysToDouble < 1 && rise > grain));
        }
        double before = median(points.stream().filter(point -> point[0] >= windows.firstFrom() && point[0] < windows.firstTo()).toList());
        double after = median(points.stream().filter(point -> point[0] >= windows.lastFrom()).toList());
        double drift = after / before - 1;
        return new Verdict(name, kind, first, last, slope * 3600, Double.NaN, drift, !(drift > MOST_DRIFT));
    }

    /** From a time on, each sample's value replaced by the highest of those within one cycle before it, itself included. */
    private List<double[]> peaks(double from, double cycle) {
        List<double[]> peaks = new ArrayList<>();
        for (double[] point : points) {
            if (point[0] >= from) {
                double peak = points.stream().filter(earlier -> earlier[0] > point[0] - cycle && earlier[0] <= point[0])
                        .mapToDouble(earlier -> earlier[1]).max().orElseThrow();
                peaks.add(new double[] { point[0], peak });
            }
        }
        return peaks;
    }

    static double slope(List<double[]> points) {
        int n = points.size();
        if (n < 2) {
            return Double.NaN;
        }
        double meanX = points.stream().mapToDouble(point -> point[0]).average().orElseThrow();
        double meanY = points.stream().mapToDouble(point -> point[1]).average().orElseThrow();
        double covariance = 0;
        double variance = 0;
        for (double[] point : points) {
            covariance += (point[0] - meanX) * (point[1] - meanY);
            variance += (point[0] - meanX) * (point[0] - meanX);
        }
        return covariance / variance;
    }

    static double median(List<double[]> points) {
        double[] values = points.stream().mapToDouble(point -> point[1]).sorted().toArray();
        if (values.length == 0) {
            return Double.NaN;
        }
        return values.length % 2 == 1 ? values[values.length / 2] : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
    }
}
