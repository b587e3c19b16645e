package io.orderflow.shared.tracing;

import java.util.List;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;

/**
 * A trace context as one W3C {@code traceparent} value, for work that leaves the request and carries on
 * elsewhere: an outbox row written in the request's transaction, an entry of an order-event stream.
 * Only a sampled span yields one, so that nothing is built or stored for work no trace records.
 */
public final class TraceParents {

    /** The W3C name of the value, used as the field of a stream entry too. */
    public static final String FIELD = "traceparent";

    private static final TextMapPropagator W3C = W3CTraceContextPropagator.getInstance();

    private static final TextMapSetter<String[]> ONE_VALUE = (carrier, key, value) -> {
        if (carrier != null && FIELD.equals(key)) {
            carrier[0] = value;
        }
    };

    private static final TextMapGetter<String> FROM_VALUE = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return List.of(FIELD);
        }

        @Override
        public String get(String carrier, String key) {
            return FIELD.equals(key) ? carrier : null;
        }
    };

    private TraceParents() {
    }

    /** The traceparent of the current span, or null when no sampled span is current. */
    public static String current() {
        return of(Context.current());
    }

    /** The traceparent of this span, or null when it is not sampled. */
    public static String of(Span span) {
        return of(Context.root().with(span));
    }

    private static String of(Context context) {
        if (!Span.fromContext(context).getSpanContext().isSampled()) {
            return null;
        }
        String[] value = new String[1];
        W3C.inject(context, value, ONE_VALUE);
        return value[0];
    }

    /** The context a span continuing this traceparent takes as its parent: the root (a new trace) for null or a malformed value. */
    public static Context parent(String traceParent) {
        return traceParent == null ? Context.root() : W3C.extract(Context.root(), traceParent, FROM_VALUE);
    }
}
