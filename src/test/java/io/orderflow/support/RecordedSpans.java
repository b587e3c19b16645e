package io.orderflow.support;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;

/**
 * Keeps the spans the app records in memory, for tests to read; being an exporter, it also takes the place
 * of the OTLP one. The test profile records only traces whose request sent a sampled traceparent, so that
 * the rest of the suite leaves nothing here.
 */
@Singleton
public class RecordedSpans {

    @Produces
    @Singleton
    InMemorySpanExporter spans() {
        return InMemorySpanExporter.create();
    }
}
