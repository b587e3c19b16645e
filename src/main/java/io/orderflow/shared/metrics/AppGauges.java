package io.orderflow.shared.metrics;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;

/**
 * Gauges that read this app's beans, registered from {@code StartupEvent} observers and removed when the
 * app stops. The meter registry is global and may outlive the app (tests start apps one after another
 * in one JVM). Micrometer keeps the first gauge of a name and tags, so one left behind by an app that
 * stopped without removing it (a start that failed) would answer for this app, reading a stopped one:
 * a gauge registered here replaces whatever holds its name.
 */
@ApplicationScoped
public class AppGauges {

    private final MeterRegistry registry;
    private final List<Meter> registered = new CopyOnWriteArrayList<>();

    AppGauges(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Registers the gauge for as long as the app runs. */
    public void register(Gauge.Builder<?> gauge) {
        gauge.strongReference(true);
        registry.remove(gauge.register(registry));
        registered.add(gauge.register(registry));
    }

    void removeAll(@Observes ShutdownEvent stop) {
        registered.forEach(registry::remove);
        registered.clear();
    }
}
