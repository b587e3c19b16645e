package io.orderflow.shared.tracing;

import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;

@ConfigMapping(prefix = "orders.tracing")
public interface TracingConfig {

    /**
     * Addresses or CIDR ranges (the connection's source: a gateway, mesh or service that traces) whose
     * requests' {@code traceparent}, {@code tracestate} and {@code baggage} are taken as the request's
     * parent. From anyone else they are ignored: a client can neither join its requests to a trace nor
     * have them recorded. None by default.
     */
    Optional<List<String>> trustedSources();
}
