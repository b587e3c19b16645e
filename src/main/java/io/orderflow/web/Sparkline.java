package io.orderflow.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A small line chart of a figure's last hour, one point a minute, as the health page's inline SVG draws it: the newest
 * point at the right edge, older ones leftwards (a figure sampled for less than an hour starts further right), 0 at the
 * bottom and {@link #top} at the top. A minute without a figure breaks the line.
 */
public record Sparkline(List<Double> values, double top) {

    /** The minutes across the chart. */
    static final int SLOTS = HealthSampler.MINUTES;
    /** The SVG's size, and the plot's place in it: room on the left for the top's label, below for the time axis. */
    static final int WIDTH = 320;
    static final int HEIGHT = 100;
    static final int PLOT_LEFT = 40;
    static final int PLOT_RIGHT = 310;
    static final int PLOT_TOP = 10;
    static final int PLOT_BOTTOM = 80;
    /** Where the template draws the axes and their labels (the labels a little off the plot's edges). */
    static final Map<String, Integer> LAYOUT = Map.of("width", WIDTH, "height", HEIGHT, "left", PLOT_LEFT, "right", PLOT_RIGHT, "top", PLOT_TOP,
            "bottom", PLOT_BOTTOM, "valueLabelX", PLOT_LEFT - 4, "topLabelY", PLOT_TOP + 4, "timeLabelY", HEIGHT - 4);

    /** The values of the last minutes, oldest first (at most {@link #SLOTS}), scaled to the highest, or to {@code fixedTop} if given (100 for percent). */
    static Sparkline of(List<Double> values, Double fixedTop) {
        List<Double> shown = values.size() > SLOTS ? values.subList(values.size() - SLOTS, values.size()) : values;
        double highest = shown.stream().filter(Objects::nonNull).mapToDouble(Double::doubleValue).max().orElse(0);
        return new Sparkline(shown, fixedTop != null ? fixedTop : roundUp(highest));
    }

    /** The smallest of 1, 2 or 5 times a power of ten that is no less than the figure, so the top's label reads plainly; 1 for nothing. */
    static double roundUp(double figure) {
        if (figure <= 1) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(figure)));
        for (double step : new double[] { 1, 2, 5 }) {
            if (step * power >= figure) {
                return step * power;
            }
        }
        return 10 * power;
    }

    /** Each unbroken run of points as an SVG polyline's points ("x,y x,y"); a lone point twice, so that it shows as a dot. */
    public List<String> segments() {
        List<String> segments = new ArrayList<>();
        List<String> run = new ArrayList<>();
        int first = SLOTS - values.size();
        for (int i = 0; i < values.size(); i++) {
            Double value = values.get(i);
            if (value == null) {
                flush(run, segments);
            } else {
                run.add(coordinate(x(first + i)) + "," + coordinate(y(value)));
            }
        }
        flush(run, segments);
        return segments;
    }

    private static void flush(List<String> run, List<String> segments) {
        if (run.size() == 1) {
            run.add(run.get(0));
        }
        if (!run.isEmpty()) {
            segments.add(String.join(" ", run));
        }
        run.clear();
    }

    /** Where a minute's point goes across: the first at the left edge, the newest at the right. */
    static double x(int slot) {
        return PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * slot / (double) (SLOTS - 1);
    }

    /** Where a value goes up: 0 at the bottom, {@link #top} at the top, anything above drawn at the top. */
    double y(double value) {
        return PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * Math.min(Math.max(value, 0), top) / top;
    }

    public String topLabel() {
        return figure(top);
    }

    /** The newest value; null when it has none. */
    public Double latest() {
        return values.isEmpty() ? null : values.get(values.size() - 1);
    }

    /** The highest value drawn; null when none is. */
    public Double highest() {
        return values.stream().filter(Objects::nonNull).max(Double::compare).orElse(null);
    }

    /** The lowest value drawn; null when none is. */
    public Double lowest() {
        return values.stream().filter(Objects::nonNull).min(Double::compare).orElse(null);
    }

    /** A figure as the chart writes it: to one decimal, none when that is 0 (12, 12.3); the same in every language. */
    static String figure(double value) {
        String written = String.format(Locale.ROOT, "%.1f", value);
        return written.endsWith(".0") ? written.substring(0, written.length() - 2) : written;
    }

    private static String coordinate(double position) {
        return String.format(Locale.ROOT, "%.1f", position);
    }
}
