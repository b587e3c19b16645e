package io.orderflow.shared.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.orderflow.support.FastTest;

@FastTest
class AppGaugesTest {

    private final MeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void aGaugeLeftByAStoppedAppIsReplacedSoTheRunningAppIsRead() {
        AtomicLong stoppedApp = new AtomicLong(7);
        Gauge.builder("orders.refunds.overdue", stoppedApp, AtomicLong::get).strongReference(true).register(registry);
        AtomicLong runningApp = new AtomicLong(2);

        new AppGauges(registry).register(Gauge.builder("orders.refunds.overdue", runningApp, AtomicLong::get));

        assertThat(registry.get("orders.refunds.overdue").gauge().value()).isEqualTo(2);
        assertThat(registry.find("orders.refunds.overdue").gauges()).hasSize(1);
    }

    @Test
    void theAppsGaugesAreGoneOnceItStops() {
        AppGauges gauges = new AppGauges(registry);
        gauges.register(Gauge.builder("orders.outbox.pending", new AtomicLong(1), AtomicLong::get).tag("kind", "refund"));
        gauges.register(Gauge.builder("orders.outbox.pending", new AtomicLong(3), AtomicLong::get).tag("kind", "shipment"));

        gauges.removeAll(null);

        assertThat(registry.find("orders.outbox.pending").gauges()).isEmpty();
    }
}
