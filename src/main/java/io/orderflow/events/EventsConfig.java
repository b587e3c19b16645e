package io.orderflow.events;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "orders.events")
public interface EventsConfig {

    /** Where order events travel from the outbox to their consumers. */
    enum Transport {
        /** Redis Streams, on the Redis the service uses anyway (the settings below). */
        REDIS_STREAMS("redis"),
        /** A Kafka topic (orders.events.kafka.*, and the client's kafka.* settings such as kafka.bootstrap.servers). */
        KAFKA("kafka");

        private final String messagingSystem;

        Transport(String messagingSystem) {
            this.messagingSystem = messagingSystem;
        }

        /** The transport's name in the events' spans (OpenTelemetry's messaging.system). */
        public String messagingSystem() {
            return messagingSystem;
        }
    }

    /** {@code redis-streams} or {@code kafka}; switch only while no order event waits in the outbox (docs/operations.md). */
    @WithDefault("redis-streams")
    Transport transport();

    /** The Kafka transport's topic. */
    Kafka kafka();

    interface Kafka {

        /** The topic, keyed by order id so that an order's events keep their order; created at start if missing. */
        @WithDefault("orders.events")
        String topic();

        /** Partitions of the topic when the service creates it; its replication is the broker's default. */
        @WithDefault("8")
        int partitions();
    }

    /** How often the consumer reads the order event stream ({@code off} stops it). */
    @WithDefault("1S")
    String pollInterval();

    /**
     * How many streams the order events are spread over, by order id: 1 for a single Redis; on a Redis
     * Cluster more (e.g. 8) spread the events' load over slots. An order's events share one stream, in order.
     * Change it only while no order event waits in the outbox or the streams: an order's next event may move.
     */
    @WithDefault("1")
    int streams();

    /**
     * How many replicas must hold published order events before the outbox lets go of them (WAIT after
     * each batch): 0 for a Redis without replicas; 1 where a replica may be promoted (a Redis Cluster, or
     * Sentinel), so that a failover after its master died loses no event.
     */
    @WithDefault("0")
    int replicas();

    /** How long a publish waits for {@link #replicas()}; past it the batch is published again later. */
    @WithDefault("1S")
    Duration replicaTimeout();

    /** An event read by a consumer that died is taken over by another after this long unacknowledged. */
    @WithDefault("30S")
    Duration claimAfter();

    /**
     * About how many entries the stream keeps: each publish trims older ones (XADD MAXLEN ~), whether
     * consumed or not, so this must exceed any backlog the consumers may fall behind by.
     */
    @WithDefault("100000")
    long maxLength();

    /**
     * When the consumer group has to be created (first start, or Redis lost the stream), the order events
     * delivered this far back that no consumer recorded are published again.
     */
    @WithDefault("1H")
    Duration redeliverWithin();
}
