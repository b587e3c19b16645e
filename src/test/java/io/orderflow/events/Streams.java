package io.orderflow.events;

import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.vertx.mutiny.redis.client.Response;

/** What the order event streams hold, read across every stream the events are spread over. */
final class Streams {

    private final OrderEvents events;
    private final RedisDataSource redis;
    private final ObjectMapper json;

    Streams(OrderEvents events, RedisDataSource redis, ObjectMapper json) {
        this.events = events;
        this.redis = redis;
        this.json = json;
    }

    /** Events (their JSON) as the relay publishes them, each to its order's stream. */
    void publish(String... eventJsons) {
        events.publish(Arrays.stream(eventJsons).map(event -> new OrderEvents.Published(StreamedOrderEvent.read(json, event).orderId(), event))
                .toList());
    }

    /** Every event in the streams, stream by stream, each in stream order. */
    List<StreamedOrderEvent> published() {
        return events.streams().stream().flatMap(stream -> published(stream).stream()).toList();
    }

    /** The events in one stream, in stream order. */
    List<StreamedOrderEvent> published(String stream) {
        return redis.stream(String.class).xrange(stream, StreamRange.of("-", "+")).stream()
                .map(entry -> StreamedOrderEvent.read(json, entry.payload().get("event"))).toList();
    }

    /** Entries read by a consumer and not yet acknowledged, in all streams. */
    long unacknowledged() {
        return events.streams().stream().mapToLong(stream -> redis.execute("XPENDING", stream, OrderNotifications.GROUP).get(0).toLong()).sum();
    }

    /** The consumer group has read and acknowledged every entry of every stream. */
    boolean everythingConsumed() {
        return events.streams().stream().allMatch(stream -> {
            Response group = redis.execute("XINFO", "GROUPS", stream).get(0);
            return group.get("pending").toLong() == 0 && group.get("lag") != null && group.get("lag").toLong() == 0;
        });
    }

    /** What a restart of a Redis that keeps nothing on disk leaves: no stream, no consumer group. */
    void forget() {
        events.streams().forEach(stream -> redis.key().del(stream));
    }
}
