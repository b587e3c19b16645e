package io.orderflow.web;

import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.shared.StopsWithTheApp;
import io.quarkus.scheduler.Scheduled;

/**
 * The figures only this instance knows, sampled from its meters once a minute and kept for the last hour, for the
 * console's health page: its requests' p99 in that minute, and its gauges of the order events' lag, the outbox's backlog
 * and the dead letters (those two are counted in the database, so any instance's history shows the same). Another
 * instance, or this one restarted, has samples of its own; the page says so.
 */
@ApplicationScoped
class HealthSampler {

    /** A sampled figure, read from the meter of that name. */
    enum Figure {
        REQUEST_P99("http.server.requests"), EVENT_LAG("orders.events.lag"), OUTBOX_BACKLOG("orders.outbox.pending"), DEAD_LETTERS("orders.outbox.dead");

        private final String meter;

        Figure(String meter) {
            this.meter = meter;
        }
    }

    /** An hour of one-minute samples. */
    static final int MINUTES = 60;
    private static final double P99 = 0.99;

    private final MeterRegistry registry;
    private final Map<Figure, MinuteRing> samples = new EnumMap<>(Figure.class);
    private RequestBuckets lastBuckets;

    HealthSampler(MeterRegistry registry) {
        this.registry = registry;
        for (Figure figure : Figure.values()) {
            samples.put(figure, new MinuteRing(MINUTES));
        }
    }

    @StopsWithTheApp
    @Scheduled(every = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sample() {
        RequestBuckets buckets = RequestBuckets.of(registry.find(Figure.REQUEST_P99.meter).timers());
        samples.get(Figure.REQUEST_P99).add(lastBuckets == null ? null : buckets.quantileSince(lastBuckets, P99));
        lastBuckets = buckets;
        for (Figure gauge : List.of(Figure.EVENT_LAG, Figure.OUTBOX_BACKLOG, Figure.DEAD_LETTERS)) {
            samples.get(gauge).add(now(gauge));
        }
    }

    /** The samples of the last hour, oldest first. */
    List<Double> samples(Figure figure) {
        return samples.get(figure).samples();
    }

    /** A gauge's figure now, summed over its tags; null when it has none or cannot be read (Micrometer reads NaN when the database fails). */
    Double now(Figure gauge) {
        Collection<Gauge> gauges = registry.find(gauge.meter).gauges();
        double sum = gauges.stream().mapToDouble(Gauge::value).sum();
        return gauges.isEmpty() || Double.isNaN(sum) ? null : sum;
    }
}
