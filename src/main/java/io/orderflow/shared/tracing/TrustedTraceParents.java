package io.orderflow.shared.tracing;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;

import jakarta.inject.Singleton;

import io.netty.handler.ipfilter.IpFilterRuleType;
import io.netty.handler.ipfilter.IpSubnetFilterRule;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.quarkus.opentelemetry.runtime.propagation.TextMapPropagatorCustomizer;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.observability.HttpRequest;

/**
 * A request's trace context ({@code traceparent}, {@code tracestate}, {@code baggage}) is read only when
 * it comes from a trusted source ({@code orders.tracing.trusted-sources}); from anyone else the request
 * starts a trace of its own, recorded at the configured ratio. Otherwise any client could join its
 * requests to another trace, or have every one of them recorded by sending a sampled traceparent.
 * Trace context the service itself carries (outbox rows, stream entries, Kafka headers) is not affected.
 */
@Singleton
class TrustedTraceParents implements TextMapPropagatorCustomizer {

    private final List<IpSubnetFilterRule> trusted;

    TrustedTraceParents(TracingConfig config) {
        this.trusted = config.trustedSources().orElse(List.of()).stream().map(TrustedTraceParents::rule).toList();
    }

    @Override
    public TextMapPropagator customize(Context context) {
        return new FromTrustedSources(context.propagator(), this::isTrusted);
    }

    private boolean isTrusted(SocketAddress source) {
        if (source == null || source.hostAddress() == null || trusted.isEmpty()) {
            return false;
        }
        try {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(source.hostAddress()), source.port());
            return trusted.stream().anyMatch(rule -> rule.matches(address));
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** {@code 10.0.0.0/8}, {@code 2001:db8::/32}, or one address. */
    private static IpSubnetFilterRule rule(String source) {
        String[] parts = source.trim().split("/", 2);
        try {
            InetAddress address = InetAddress.getByName(parts[0]);
            int prefix = parts.length == 2 ? Integer.parseInt(parts[1]) : address.getAddress().length * 8;
            return new IpSubnetFilterRule(address, prefix, IpFilterRuleType.ACCEPT);
        } catch (UnknownHostException | IllegalArgumentException e) {
            throw new IllegalArgumentException("orders.tracing.trusted-sources: " + source + " is no address or CIDR range", e);
        }
    }

    private record FromTrustedSources(TextMapPropagator delegate, Predicate<SocketAddress> trusted) implements TextMapPropagator {

        @Override
        public Collection<String> fields() {
            return delegate.fields();
        }

        @Override
        public <C> void inject(io.opentelemetry.context.Context context, C carrier, TextMapSetter<C> setter) {
            delegate.inject(context, carrier, setter);
        }

        @Override
        public <C> io.opentelemetry.context.Context extract(io.opentelemetry.context.Context context, C carrier, TextMapGetter<C> getter) {
            if (carrier instanceof HttpRequest request && !trusted.test(request.remoteAddress())) {
                return context;
            }
            return delegate.extract(context, carrier, getter);
        }
    }
}
