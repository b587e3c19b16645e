package io.orderflow.events;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamCommands;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Order events travel outbox -> Redis Stream -> consumer group, a redelivered event has no second
 * effect, and an entry that cannot be read does not hold up the ones behind it.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class OrderEventTest {

    @Inject
    OrderEvents events;

    @Inject
    OrderEventHandler handler;

    @Inject
    RedisDataSource redis;

    @Inject
    MeterRegistry metrics;

    @Inject
    ObjectMapper json;

    @Test
    void eachChangeOfAnOrderNotifiesItsCustomerOnce() {
        String id = newOrder("alice");
        act("alice", id, "cancel").then().statusCode(200);

        await().atMost(Duration.ofSeconds(10)).until(() -> notificationsFor(id) == 2);
        assertThat(Orders.value("SELECT string_agg(message, ' | ' ORDER BY id) FROM order_notifications WHERE order_id = ?", id))
                .isEqualTo("Your order is created. | Your order is cancelled.");
    }

    @Test
    void aRedeliveredEventIsConsumedOnce() {
        String id = newOrder("bob");
        await().atMost(Duration.ofSeconds(10)).until(() -> notificationsFor(id) == 1);
        String created = Orders.value("SELECT payload FROM outbox_all WHERE kind = 'order-event' AND order_id = ?", id);

        // The stream delivers the same event again, twice (a publisher retry, a replayed backlog).
        streams().publish(created, created);
        await().atMost(Duration.ofSeconds(10)).until(streams()::everythingConsumed);

        assertThat(notificationsFor(id)).isEqualTo(1);
        assertThat(handler.notifyCustomers(List.of(StreamedOrderEvent.read(json, created)))).as("a further delivery has no effect").isZero();
        assertThat(notificationsFor(id)).isEqualTo(1);
    }

    @Test
    void afterRedisLostTheStreamAndItsGroupEventsItHeldUnreadAreDeliveredAgainAndNewOnesConsumed() {
        String id = newOrder("bob");
        await().atMost(Duration.ofSeconds(10)).until(() -> notificationsFor(id) == 1);
        // An event the relay had published, lost with the stream before any consumer read it.
        String eventId = UUID.randomUUID().toString();
        Orders.execute("INSERT INTO outbox_delivered (id, kind, order_id, idempotency_key, payload, attempts, created_at, delivered_at) "
                + "VALUES (-1, 'order-event', '" + id + "', 'event:" + eventId + "', '{\"eventId\":\"" + eventId
                + "\",\"type\":\"paid\",\"orderId\":\"" + id + "\",\"customer\":\"bob\",\"at\":\"2026-01-01T00:00:00Z\"}', 1, now(), now())");

        streams().forget();

        await().atMost(Duration.ofSeconds(15)).until(() -> notificationsFor(id) == 2);
        String after = newOrder("bob");
        await().atMost(Duration.ofSeconds(15)).until(() -> notificationsFor(after) == 1);
        await().atMost(Duration.ofSeconds(10)).until(streams()::everythingConsumed);
        assertThat(Orders.value("SELECT count(*) FROM processed_messages WHERE event_id = ?", eventId)).isEqualTo("1");
    }

    @Test
    void anEventReadByAConsumerThatDiedIsTakenOverByAnother() {
        String id = newOrder("bob");
        await().atMost(Duration.ofSeconds(10)).until(() -> notificationsFor(id) == 1);
        String eventId = UUID.randomUUID().toString();
        String shipped = "{\"eventId\":\"" + eventId + "\",\"type\":\"shipped\",\"orderId\":\"" + id
                + "\",\"customer\":\"bob\",\"at\":\"2026-01-01T00:00:00Z\"}";

        // Published and, in the same atomic step, read by an instance that then dies without acknowledging it.
        redis.execute("EVAL", """
                redis.call('XADD', KEYS[1], '*', 'event', ARGV[1])
                return redis.call('XREADGROUP', 'GROUP', ARGV[2], 'crashed-instance', 'COUNT', 1, 'STREAMS', KEYS[1], '>')""",
                "1", events.streamOf(UUID.fromString(id)), shipped, "notifications");

        await().atMost(Duration.ofSeconds(15)).until(() -> notificationsFor(id) == 2);
        assertThat(Orders.value("SELECT count(*) FROM processed_messages WHERE event_id = ?", eventId)).isEqualTo("1");
    }

    @Test
    void unreadableEntriesAreDeadLetteredAndTheEventsBehindThemConsumed() {
        double deadLettersBefore = deadLetters();
        StreamCommands<String, String, String> stream = redis.stream(String.class);
        String anyStream = events.streams().get(0);
        stream.xadd(anyStream, Map.of("event", "not JSON at all " + "x".repeat(100_000)));
        stream.xadd(anyStream, Map.of("event", """
                {"eventId":"not-a-uuid","type":"created","orderId":"%s","customer":"bob"}""".formatted(UUID.randomUUID())));
        stream.xadd(anyStream, Map.of("comment", "an entry without an event"));
        // Readable, but PostgreSQL cannot store it: it must not fail the reads it is in for good.
        stream.xadd(anyStream, Map.of("event", """
                {"eventId":"%s","type":"created","orderId":"%s","customer":"bo\\u0000b"}""".formatted(UUID.randomUUID(), UUID.randomUUID())));

        String id = newOrder("bob");

        await().atMost(Duration.ofSeconds(10)).until(() -> notificationsFor(id) == 1);
        await().atMost(Duration.ofSeconds(10)).until(streams()::everythingConsumed);
        assertThat(deadLetters() - deadLettersBefore).isEqualTo(4);
    }

    private double deadLetters() {
        return metrics.counter("orders.events.dead-letters").count();
    }

    private static int notificationsFor(String orderId) {
        return Integer.parseInt(Orders.value("SELECT count(*) FROM order_notifications WHERE order_id = ?", orderId));
    }

    private Streams streams() {
        return new Streams(events, redis, json);
    }
}
