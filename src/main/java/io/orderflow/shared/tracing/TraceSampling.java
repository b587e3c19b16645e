package io.orderflow.shared.tracing;

import java.util.List;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.ConfigValue;
import org.jboss.logging.Logger;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;

/**
 * Which spans are recorded. Nothing is, unless traces go somewhere: an OTLP endpoint is set
 * (QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT) or the app has an exporter bean of its own (the tests' in-memory
 * one). Spans are still created then, unrecorded, so that logs carry the trace and span ids, but none is
 * kept or sent, and no string is built for an outbox row or a stream entry.
 * When traces go somewhere, a trace a trusted caller sampled is followed (TrustedTraceParents), a new one is recorded at the ratio
 * {@code quarkus.otel.traces.sampler.arg} (default 1), and a database or Redis call outside any trace (the
 * background loops poll several times a second) is not recorded.
 */
@Singleton
class TraceSampling {

    private static final Logger LOG = Logger.getLogger(TraceSampling.class);
    /** Where Quarkus sends traces when no endpoint is set: its default, which says nothing about a collector being there. */
    private static final List<String> ENDPOINTS = List.of("quarkus.otel.exporter.otlp.traces.endpoint", "quarkus.otel.exporter.otlp.endpoint");

    @Produces
    @Singleton
    Sampler sampler(Instance<SpanExporter> exporters) {
        Config config = ConfigProvider.getConfig();
        if (exporters.isUnsatisfied() && ENDPOINTS.stream().noneMatch(name -> isSet(config.getConfigValue(name)))) {
            LOG.debug("No OTLP endpoint is set: spans are not recorded");
            return Sampler.alwaysOff();
        }
        double ratio = config.getOptionalValue("quarkus.otel.traces.sampler.arg", Double.class).orElse(1.0);
        LOG.infof("Spans are recorded: new traces at a ratio of %s, and every trace a trusted caller sampled", ratio);
        return new InTracesOnly(Sampler.parentBased(Sampler.traceIdRatioBased(ratio)));
    }

    /** Set by the deployment, not Quarkus's default value (which lives in the lowest config source). */
    private static boolean isSet(ConfigValue value) {
        return value.getRawValue() != null && !value.getRawValue().isBlank() && value.getSourceOrdinal() > Integer.MIN_VALUE;
    }

    /** Leaves out client spans that start a trace: calls of the background loops, which no request or event asked for. */
    private record InTracesOnly(Sampler delegate) implements Sampler {

        @Override
        public SamplingResult shouldSample(Context parentContext, String traceId, String name, SpanKind spanKind, Attributes attributes,
                List<LinkData> parentLinks) {
            if (spanKind == SpanKind.CLIENT && !Span.fromContext(parentContext).getSpanContext().isValid()) {
                return SamplingResult.drop();
            }
            return delegate.shouldSample(parentContext, traceId, name, spanKind, attributes, parentLinks);
        }

        @Override
        public String getDescription() {
            return "InTracesOnly{" + delegate.getDescription() + "}";
        }
    }
}
