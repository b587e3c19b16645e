package io.orderflow.events;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.StreamSupport;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.orderflow.events.OrderEventHandler.Received;
import io.orderflow.shared.BackgroundThreads;
import io.orderflow.shared.WorkInProgress;
import io.orderflow.shared.tracing.TraceParents;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Reads order events from the Kafka topic (orders.events.transport=kafka) in the consumer group
 * {@value OrderEventHandler#GROUP}, on a thread of its own, up to {@value #READ_BATCH} records a poll,
 * which {@link OrderEventHandler} handles in one transaction; the offsets are committed once the poll is
 * handled. A poll whose handling failed is read again from its first offsets after a pause, so nothing
 * is skipped; an event read twice notifies once. A stopping instance (SIGTERM) ends its loop after the
 * poll in hand, committed, and leaves the group, so its partitions go to the other instances without
 * waiting out the session timeout.
 */
@ApplicationScoped
class KafkaOrderNotifications {

    private static final Logger LOG = Logger.getLogger(KafkaOrderNotifications.class);
    private static final int READ_BATCH = 100;
    private static final Duration POLL_WAIT = Duration.ofMillis(500);
    /** After a failed poll: the database or the broker is failing, and reading again at once would only fail again. */
    private static final Duration PAUSE_AFTER_FAILURE = Duration.ofSeconds(1);
    /** How Quarkus spells a schedule that never runs (orders.events.poll-interval). */
    private static final Set<String> OFF = Set.of("off", "disabled");
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final KafkaOrderEvents kafka;
    private final OrderEventHandler handler;
    private final WorkInProgress work;
    private final boolean enabled;
    private ExecutorService thread;

    KafkaOrderNotifications(KafkaOrderEvents kafka, OrderEventHandler handler, WorkInProgress work, EventsConfig config,
            @ConfigProperty(name = "quarkus.scheduler.enabled", defaultValue = "true") boolean scheduled) {
        this.kafka = kafka;
        this.handler = handler;
        this.work = work;
        this.enabled = config.transport() == EventsConfig.Transport.KAFKA && scheduled
                && !OFF.contains(config.pollInterval().trim().toLowerCase(Locale.ROOT));
    }

    void start(@Observes StartupEvent startup) {
        if (!enabled) {
            return;
        }
        thread = Executors.newSingleThreadExecutor(task -> {
            Thread reader = new Thread(task, "order-events-kafka");
            reader.setDaemon(true);
            return reader;
        });
        thread.execute(this::consume);
    }

    /**
     * Reads until the instance is stopping; a consumer that failed is replaced by a new one after a pause. The
     * topic is made ready first, on this thread, so that a broker out of reach delays the reading, not the start.
     */
    private void consume() {
        boolean prepared = false;
        while (!work.stopping()) {
            try {
                if (!prepared) {
                    prepare();
                    prepared = true;
                }
                readWithOneConsumer();
            } catch (RuntimeException e) {
                LOG.warnf("Reading order events from Kafka failed (%s); it starts again with a new consumer", e.toString());
                pause();
            }
        }
    }

    private void prepare() {
        kafka.ensureTopic();
        // Events the other transport delivered but no consumer recorded (left unread when the deployment switched
        // to Kafka) travel again, over Kafka; any that are only in flight are read twice and notify once.
        int redelivered = handler.redeliverUnconsumed();
        if (redelivered > 0) {
            LOG.infof("Queued again %d order events delivered but not recorded by any consumer", redelivered);
        }
    }

    private void readWithOneConsumer() {
        Map<String, Object> settings = kafka.settings();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, OrderEventHandler.GROUP);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, READ_BATCH);
        try (Consumer<String, String> reader = new KafkaConsumer<>(settings, new StringDeserializer(), new StringDeserializer())) {
            reader.subscribe(List.of(kafka.topic()));
            while (!work.stopping()) {
                ConsumerRecords<String, String> records = reader.poll(POLL_WAIT);
                if (!records.isEmpty() && !handled(reader, records)) {
                    pause();
                }
            }
        }
    }

    /** Handles one poll and commits its offsets; on failure rewinds to its first offsets, to read it again. */
    private boolean handled(Consumer<String, String> reader, ConsumerRecords<String, String> records) {
        try {
            handler.handle(received(records));
            reader.commitSync();
            return true;
        } catch (RuntimeException e) {
            LOG.warnf("Order events read from Kafka could not be handled (%s); they are read again", e.toString());
            for (TopicPartition partition : records.partitions()) {
                reader.seek(partition, records.records(partition).get(0).offset());
            }
            return false;
        }
    }

    private static List<Received> received(ConsumerRecords<String, String> records) {
        return StreamSupport.stream(records.spliterator(), false).map(KafkaOrderNotifications::received).toList();
    }

    private static Received received(ConsumerRecord<String, String> record) {
        Header traceParent = record.headers().lastHeader(TraceParents.FIELD);
        return new Received(EventsConfig.Transport.KAFKA.messagingSystem(), record.topic(), record.partition() + "-" + record.offset(),
                record.value(), traceParent == null ? null : new String(traceParent.value(), StandardCharsets.US_ASCII),
                String.valueOf(record.value()));
    }

    private static void pause() {
        try {
            Thread.sleep(PAUSE_AFTER_FAILURE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The loop ends within a poll's wait once the instance is stopping (SIGTERM); this waits for it. */
    void stop(@Observes ShutdownEvent shutdown) {
        if (thread != null) {
            BackgroundThreads.stop(thread, STOP_WAIT);
        }
    }
}
