package io.orderflow.events;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.orderflow.events.OrderEvents.Published;
import io.orderflow.shared.tracing.TraceParents;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.common.annotation.Identifier;

/**
 * Publishes order events to a Kafka topic (orders.events.transport=kafka), keyed by order id, so that an
 * order's events share a partition and keep their order. The producer is idempotent and waits for every
 * in-sync replica (acks=all): a batch counts as published only once the brokers hold all of it, or it
 * stays in the outbox and is published again, and a send the producer retries is not written twice.
 * The record carries the event's traceparent as a header, like the stream entry its field.
 */
@ApplicationScoped
class KafkaOrderEvents {

    private static final Logger LOG = Logger.getLogger(KafkaOrderEvents.class);
    /** As long as a publish to Redis may take, and well within an outbox lease. */
    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final Map<String, Object> kafkaSettings;
    private final String topic;
    private final int partitions;
    private final Tracer tracer;
    /** Made at the first publish: an instance on Redis Streams never connects to Kafka. */
    private Producer<String, String> producer;

    KafkaOrderEvents(@Identifier("default-kafka-broker") Map<String, Object> kafkaSettings, EventsConfig config, Tracer tracer) {
        this.kafkaSettings = kafkaSettings;
        this.topic = config.kafka().topic();
        this.partitions = config.kafka().partitions();
        this.tracer = tracer;
    }

    String topic() {
        return topic;
    }

    /** The client's kafka.* settings, as the Kafka clients take them. */
    Map<String, Object> settings() {
        return new HashMap<>(kafkaSettings);
    }

    /** Creates the topic with orders.events.kafka.partitions partitions unless it exists (the broker's default replication). */
    void ensureTopic() {
        try (Admin admin = Admin.create(settings())) {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty()))).all()
                    .get(PUBLISH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            LOG.infof("Created the Kafka topic %s with %d partitions", topic, partitions);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("Cannot create the Kafka topic " + topic + ": " + e.getCause().getMessage(), e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not answer within " + PUBLISH_TIMEOUT + " creating the topic " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends the events in this order and returns once the brokers acknowledged every one; otherwise throws. */
    void publish(List<Published> events) {
        Producer<String, String> sender = producer();
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        List<Span> spans = new ArrayList<>();
        long deadline = System.nanoTime() + PUBLISH_TIMEOUT.toNanos();
        try {
            // The topic's partitions, or a failure within max.block.ms: while the brokers are out of reach every send
            // would wait that long for them, one after the other, holding the relay (and a stopping instance) up.
            sender.partitionsFor(topic);
            for (Published event : events) {
                Span span = OrderEvents.publishSpan(tracer, event, EventsConfig.Transport.KAFKA.messagingSystem(), topic);
                if (span.isRecording()) {
                    spans.add(span);
                }
                ProducerRecord<String, String> record = new ProducerRecord<>(topic, event.orderId().toString(), event.json());
                String traceParent = TraceParents.of(span);
                if (traceParent != null) {
                    record.headers().add(TraceParents.FIELD, traceParent.getBytes(StandardCharsets.US_ASCII));
                }
                sent.add(sender.send(record));
            }
            for (Future<RecordMetadata> acknowledged : sent) {
                acknowledged.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            spans.forEach(span -> span.recordException(cause).setStatus(StatusCode.ERROR));
            throw new UnpublishedEventsException(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnpublishedEventsException(e);
        } finally {
            spans.forEach(Span::end);
        }
    }

    private synchronized Producer<String, String> producer() {
        if (producer == null) {
            Map<String, Object> settings = settings();
            settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            settings.put(ProducerConfig.ACKS_CONFIG, "all");
            // A send gives up within the publish's own wait, so that the outbox takes the batch over.
            settings.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) PUBLISH_TIMEOUT.toMillis() / 2);
            settings.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) PUBLISH_TIMEOUT.toMillis());
            settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, PUBLISH_TIMEOUT.toMillis() / 2);
            producer = new KafkaProducer<>(settings, new StringSerializer(), new StringSerializer());
        }
        return producer;
    }

    /** After the relays stopped (they observe the same event earlier), so that no batch meets a closed producer. */
    synchronized void close(@Observes @Priority(Interceptor.Priority.LIBRARY_AFTER) ShutdownEvent shutdown) {
        if (producer != null) {
            producer.close(CLOSE_WAIT);
            producer = null;
        }
    }

    /** Kafka did not acknowledge every event of a batch in time: it stays in the outbox, to be published again. */
    static final class UnpublishedEventsException extends IllegalStateException {
        UnpublishedEventsException(Throwable cause) {
            super("Kafka did not acknowledge the order events: " + cause.getMessage(), cause);
        }
    }
}
