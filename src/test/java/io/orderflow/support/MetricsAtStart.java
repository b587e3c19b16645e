package io.orderflow.support;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.quarkus.runtime.StartupEvent;

/**
 * What /q/metrics shows the moment the app has started, before any request: read by the last observer of the
 * start. An app serves the test classes of one profile one after another, so a scrape from a test may come
 * after other classes' requests made their meters.
 */
@ApplicationScoped
public class MetricsAtStart {

    private volatile String scrape;

    void read(@Observes @Priority(Integer.MAX_VALUE) StartupEvent started, PrometheusMeterRegistry registry) {
        scrape = registry.scrape();
    }

    /** The scrape in Prometheus's text format, as /q/metrics answers it. */
    public String scrape() {
        return scrape;
    }
}
