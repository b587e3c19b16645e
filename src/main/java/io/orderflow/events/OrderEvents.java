package io.orderflow.events;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.Gauge;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.orderflow.order.OrderEventMessage;
import io.orderflow.outbox.BatchOutboxHandler;
import io.orderflow.outbox.OutboxBacklog;
import io.orderflow.outbox.OutboxMessage;
import io.orderflow.shared.metrics.AppGauges;
import io.orderflow.shared.redis.RedisKeys;
import io.orderflow.shared.tracing.TraceParents;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Order events (created, paid, shipped, delivered, cancelled) leave through the outbox, written by the
 * statement that makes the change (the order package's), and are published over the transport
 * orders.events.transport names: by default to Redis Streams, a whole batch in one round trip per stream (here), or to a Kafka topic
 * ({@link KafkaOrderEvents}). An order's events all go to one of orders.events.streams streams, chosen by its id, so
 * that they keep their order while many orders spread over the streams (and over a cluster's slots).
 * Delivery is at least once; each event carries an id by which consumers drop repeats.
 * An event written in a traced request is published under a span of that trace, whose traceparent the
 * stream entry carries beside the event, so that its consumer continues the trace.
 */
@ApplicationScoped
class OrderEvents implements BatchOutboxHandler {

    static final String KIND = OrderEventMessage.KIND;
    /** As long as Quarkus's own Redis calls may take (quarkus.redis.timeout), and well within an outbox lease. */
    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(10);
    /** The span of one event's publication, a child of the span that wrote the event. */
    static final String PUBLISH_SPAN = "order-event publish";

    private final Redis redis;
    private final RedisKeys keys;
    private final String maxLength;
    private final OutboxBacklog outboxBacklog;
    private final List<String> streams;
    private final int replicas;
    private final Duration replicaTimeout;
    private final Tracer tracer;
    private final boolean onKafka;
    private final KafkaOrderEvents kafka;

    public OrderEvents(OutboxBacklog outboxBacklog, Redis redis, RedisKeys keys, EventsConfig config, Tracer tracer,
            KafkaOrderEvents kafka) {
        this.onKafka = config.transport() == EventsConfig.Transport.KAFKA;
        this.kafka = kafka;
        this.tracer = tracer;
        this.outboxBacklog = outboxBacklog;
        this.redis = redis;
        this.keys = keys;
        this.maxLength = Long.toString(config.maxLength());
        this.replicas = config.replicas();
        this.replicaTimeout = config.replicaTimeout();
        this.streams = IntStream.range(0, config.streams()).mapToObj(OrderEvents::tag).map(tag -> keys.of(tag, "orders")).toList();
    }

    /** The first stream keeps the name the single stream always had, so that a deployment can add streams later. */
    private static String tag(int stream) {
        return stream == 0 ? "events" : "events-" + stream;
    }

    void registerGauge(@Observes StartupEvent start, AppGauges gauges) {
        gauges.register(Gauge.builder("orders.events.lag", outboxBacklog, backlog -> backlog.pending(KIND).oldestAgeSeconds(Instant.now()))
                .baseUnit("seconds")
                .description("How long the oldest order event not yet published has waited; 0 when none waits"));
    }

    @Override
    public String kind() {
        return KIND;
    }

    /** Publishes a batch of the outbox's order events over the configured transport. */
    @Override
    public void deliverAll(List<OutboxMessage> messages) {
        List<Published> published = messages.stream().map(message -> new Published(message.orderId, message.payload, message.traceParent)).toList();
        if (onKafka) {
            kafka.publish(published);
        } else {
            publish(published);
        }
    }

    /** An event as it is published: its order, which chooses the stream, its JSON, and the traceparent of the span that wrote it (or null). */
    public record Published(UUID orderId, String json, String traceParent) {

        /** An event written outside any recorded trace. */
        public Published(UUID orderId, String json) {
            this(orderId, json, null);
        }
    }

    /**
     * Appends events to their streams in this order, in one round trip per stream, all streams at
     * once, trimming the oldest entries beyond about orders.events.max-length; also what a redelivery
     * looks like to consumers. With orders.events.replicas set, each stream's batch ends with WAIT: the
     * events count as published only once that many replicas have them, so that a replica promoted after
     * its master died holds every event the outbox let go of.
     */
    public void publish(List<Published> events) {
        if (events.isEmpty()) {
            return;
        }
        Map<String, List<Request>> byStream = new LinkedHashMap<>();
        List<Span> spans = new ArrayList<>();
        for (Published event : events) {
            String stream = streamOf(event.orderId());
            Span span = publishSpan(tracer, event, EventsConfig.Transport.REDIS_STREAMS.messagingSystem(), stream);
            if (span.isRecording()) {
                spans.add(span);
            }
            byStream.computeIfAbsent(stream, any -> new ArrayList<>()).add(append(stream, event.json(), TraceParents.of(span)));
        }
        List<Uni<List<Response>>> batches = byStream.values().stream().map(this::replicated).map(redis::batch).toList();
        try {
            Uni.join().all(batches).andFailFast().await().atMost(PUBLISH_TIMEOUT).forEach(this::requireReplicas);
        } catch (RuntimeException e) {
            spans.forEach(span -> span.recordException(e).setStatus(StatusCode.ERROR));
            throw e;
        } finally {
            spans.forEach(Span::end);
        }
    }

    /**
     * The span of one event's publication over a transport to a destination (non-recording unless its trace
     * is), a child of the span that wrote it; none for an event written outside any recorded trace.
     */
    static Span publishSpan(Tracer tracer, Published event, String system, String destination) {
        if (event.traceParent() == null) {
            return Span.getInvalid();
        }
        Span span = tracer.spanBuilder(PUBLISH_SPAN).setSpanKind(SpanKind.PRODUCER).setParent(TraceParents.parent(event.traceParent()))
                .startSpan();
        if (span.isRecording()) {
            span.setAttribute("messaging.system", system).setAttribute("messaging.operation.type", "send")
                    .setAttribute("messaging.destination.name", destination).setAttribute("orders.order_id", event.orderId().toString());
        }
        return span;
    }

    private List<Request> replicated(List<Request> appends) {
        if (replicas == 0) {
            return appends;
        }
        List<Request> batch = new ArrayList<>(appends);
        // WAIT carries no key: it runs on the connection, and so the node, that took the appends before it.
        batch.add(Request.cmd(Command.WAIT).arg(replicas).arg(replicaTimeout.toMillis()));
        return batch;
    }

    private void requireReplicas(List<Response> answers) {
        if (replicas > 0) {
            int acknowledged = answers.get(answers.size() - 1).toInteger();
            if (acknowledged < replicas) {
                throw new UnreplicatedEventsException(acknowledged, replicas);
            }
        }
    }

    /** Every stream the order events are spread over. */
    public List<String> streams() {
        return streams;
    }

    /** The stream all of an order's events go to. */
    public String streamOf(UUID orderId) {
        return streams.get(Math.floorMod(orderId.hashCode(), streams.size()));
    }

    /** An entry of the event, and of the trace context its consumer continues when there is one. */
    private Request append(String stream, String eventJson, String traceParent) {
        // "~": Redis trims whole nodes only, cheaply, keeping at least maxLength entries.
        Request append = Request.cmd(Command.XADD).arg(stream).arg("MAXLEN").arg("~").arg(maxLength).arg("*").arg("event").arg(eventJson);
        return traceParent == null ? append : append.arg(TraceParents.FIELD).arg(traceParent);
    }

    /** Fewer replicas than orders.events.replicas acknowledged a batch: it stays in the outbox, to be published again. */
    static final class UnreplicatedEventsException extends IllegalStateException {
        UnreplicatedEventsException(int acknowledged, int required) {
            super("Only " + acknowledged + " of " + required + " Redis replicas acknowledged the order events in time");
        }
    }
}
