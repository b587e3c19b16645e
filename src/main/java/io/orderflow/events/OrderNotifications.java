package io.orderflow.events;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;


import io.orderflow.shared.StopsWithTheApp;
import io.orderflow.shared.WorkInProgress;
import io.orderflow.shared.redis.RedisErrors;
import io.orderflow.shared.tracing.TraceParents;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.redis.datasource.stream.StreamCommands;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.XGroupCreateArgs;
import io.quarkus.redis.datasource.stream.XReadGroupArgs;

/**
 * Reads order events from every Redis Stream they are spread over (orders.events.transport=redis-streams),
 * in the consumer group {@value #GROUP}, a read of up to {@value #READ_BATCH} entries at a time, which
 * {@link OrderEventHandler} handles in one transaction; acknowledges each read once it is handled.
 */
@ApplicationScoped
class OrderNotifications {

    static final String GROUP = OrderEventHandler.GROUP;
    private static final Logger LOG = Logger.getLogger(OrderNotifications.class);

    /** How many entries one read takes, and so one transaction handles. */
    private static final int READ_BATCH = 100;

    private final RedisDataSource redis;
    private final OrderEvents events;
    private final OrderEventHandler handler;
    private final String consumer = "consumer-" + UUID.randomUUID();
    private final Duration claimAfter;
    private final boolean onRedis;
    private final WorkInProgress work;
    /** The streams whose consumer group is known to exist. */
    private final Set<String> readyStreams = ConcurrentHashMap.newKeySet();
    /** This instance created the group and has not yet queued again what the lost stream held. */
    private volatile boolean redeliveryDue;
    /** The last poll failed: the warning of this outage is given. */
    private volatile boolean failing;

    public OrderNotifications(RedisDataSource redis, OrderEvents events, OrderEventHandler handler, EventsConfig config, WorkInProgress work) {
        this.redis = redis;
        this.events = events;
        this.handler = handler;
        this.claimAfter = config.claimAfter();
        this.onRedis = config.transport() == EventsConfig.Transport.REDIS_STREAMS;
        this.work = work;
    }

    @StopsWithTheApp
    @Scheduled(every = "${orders.events.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP, delayed = "1s")
    public void poll() {
        if (!onRedis) {
            // Order events travel over Kafka (KafkaOrderNotifications).
            return;
        }
        try {
            for (String stream : events.streams()) {
                ensureGroup(stream);
                try {
                    consume(stream);
                } catch (RuntimeException e) {
                    if (!RedisErrors.mentions(e, "NOGROUP")) {
                        throw e;
                    }
                    // Redis lost the stream with its group (restarted without its data): the next poll creates both again.
                    readyStreams.remove(stream);
                    LOG.warnf("The consumer group %s of %s is gone; it is created again at the next poll", GROUP, stream);
                }
            }
            redeliverIfDue();
        } catch (RuntimeException e) {
            // Redis or PostgreSQL is failing: one warning for the outage, not one stack trace per poll.
            if (!failing) {
                LOG.warnf("Reading order events failed (%s); the polls go on, and the next one that succeeds says so", e.toString());
                failing = true;
            }
            return;
        }
        if (failing) {
            LOG.info("Reading order events works again");
            failing = false;
        }
    }

    private void consume(String stream) {
        StreamCommands<String, String, String> streams = redis.stream(String.class);
        // Entries another consumer read but never acknowledged (its instance died) are taken over once idle.
        handle(stream, streams.xautoclaim(stream, GROUP, consumer, claimAfter, "0-0", READ_BATCH).getMessages());
        // Then this consumer's own unacknowledged entries (it failed midway), then new ones.
        handle(stream, streams.xreadgroup(GROUP, consumer, stream, "0", new XReadGroupArgs().count(READ_BATCH)));
        while (!work.stopping() && handle(stream, streams.xreadgroup(GROUP, consumer, stream, ">", new XReadGroupArgs().count(READ_BATCH))) > 0) {
            // keep reading while there is something new
        }
    }

    /**
     * At the stop, once no poll runs: this consumer leaves the group of every stream where it holds no entry,
     * so that the groups do not gather one idle consumer per start. One that does hold entries (a batch
     * failed midway) stays, so that another consumer takes them over once idle.
     */
    void leaveGroups(@Observes ShutdownEvent shutdown) {
        for (String stream : readyStreams) {
            try {
                StreamCommands<String, String, String> streams = redis.stream(String.class);
                if (streams.xpending(stream, GROUP).getConsumers().getOrDefault(consumer, 0L) == 0) {
                    streams.xgroupDelConsumer(stream, GROUP, consumer);
                }
            } catch (RuntimeException redisUnavailable) {
                LOG.debugf("Could not leave the consumer group of %s: %s", stream, redisUnavailable.toString());
            }
        }
    }

    /** Handles the entries of one read (in one transaction) and acknowledges them all at once; if handling fails, none is. */
    private int handle(String stream, List<StreamMessage<String, String, String>> messages) {
        if (messages.isEmpty()) {
            return 0;
        }
        String system = EventsConfig.Transport.REDIS_STREAMS.messagingSystem();
        handler.handle(messages.stream().map(message -> new OrderEventHandler.Received(system, stream, message.id(), message.payload().get("event"),
                message.payload().get(TraceParents.FIELD), String.valueOf(message.payload()))).toList());
        redis.stream(String.class).xack(stream, GROUP, messages.stream().map(StreamMessage::id).toArray(String[]::new));
        return messages.size();
    }

    private void ensureGroup(String stream) {
        if (readyStreams.contains(stream)) {
            return;
        }
        try {
            redis.stream(String.class).xgroupCreate(stream, GROUP, "0", new XGroupCreateArgs().mkstream());
            // A new group: the stream may have been lost with events no consumer had recorded.
            redeliveryDue = true;
        } catch (RuntimeException e) {
            if (!RedisErrors.mentions(e, "BUSYGROUP")) {
                throw e;
            }
        }
        readyStreams.add(stream);
    }

    private void redeliverIfDue() {
        if (redeliveryDue) {
            int redelivered = handler.redeliverUnconsumed();
            redeliveryDue = false;
            if (redelivered > 0) {
                LOG.warnf("Created the consumer group %s again and queued again %d order events no consumer had recorded", GROUP, redelivered);
            }
        }
    }
}
