package io.orderflow.events;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.outbox.OutboxDelivery;
import io.orderflow.outbox.OutboxWriter;
import io.orderflow.support.Metrics;
import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.TestServers;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * Order events leave the outbox in batches, each published in one round trip and recorded in one
 * statement, however many relays share the work; the consumer handles a read in one transaction;
 * the gauges tell how many events wait and for how long. Nothing relays or consumes on its own here.
 */
@QuarkusTest
@TestProfile(OrderEventRelayTest.NothingRelaysOnItsOwn.class)
@WithTestResource(TestServers.class)
class OrderEventRelayTest {

    /** The relay and the consumer run only when a test calls them; relays take batches of {@value #BATCH}. */
    public static class NothingRelaysOnItsOwn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "orders.outbox.poll-interval", "off",
                    "orders.outbox.batch-size", Integer.toString(BATCH),
                    "orders.events.poll-interval", "off");
        }
    }

    private static final int BATCH = 20;
    private static final int ORDERS = 20;
    /** orders.events.streams in the test profile (application.properties). */
    private static final int STREAMS = 3;
    private static final int EVENTS_PER_ORDER = 100;

    @Inject
    OutboxWriter writer;

    @Inject
    OutboxDelivery delivery;

    @Inject
    OrderEvents events;

    @Inject
    OrderNotifications notifications;

    @Inject
    RedisDataSource redis;

    @Inject
    ObjectMapper json;

    @Inject
    MeterRegistry metrics;

    @Test
    void twoRelaysPublishEachOfTwoThousandEventsOnce() {
        relayEverything();
        List<UUID> orders = new ArrayList<>();
        List<String> eventIds = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            UUID order = UUID.randomUUID();
            orders.add(order);
            eventIds.addAll(queue(order, EVENTS_PER_ORDER));
        }

        List<Integer> taken = Parallel.run(2, this::relayEverything);

        assertThat(taken.stream().mapToInt(Integer::intValue).sum()).isEqualTo(ORDERS * EVENTS_PER_ORDER);
        Map<String, Long> published = streams().published().stream().collect(Collectors.groupingBy(event -> event.eventId().toString(),
                Collectors.counting()));
        assertThat(eventIds).hasSize(ORDERS * EVENTS_PER_ORDER).allSatisfy(id -> assertThat(published.get(id)).as("event %s", id).isEqualTo(1));
        assertThat(Orders.value("SELECT count(*) FROM outbox WHERE kind = ?", OrderEvents.KIND)).isEqualTo("0");
        for (UUID order : orders) {
            assertThat(Orders.value("SELECT count(*) FROM outbox_delivered WHERE order_id = ? AND attempts = 1", order.toString()))
                    .isEqualTo(Integer.toString(EVENTS_PER_ORDER));
        }
    }

    @Test
    void eachOrdersEventsGoToOneStreamAndTheOrdersSpreadOverEvery() {
        relayEverything();
        assertThat(events.streams()).as("orders.events.streams in the test profile").hasSize(STREAMS).doesNotHaveDuplicates();
        Map<String, List<UUID>> ordersByStream = new HashMap<>();
        while (ordersByStream.size() < STREAMS || ordersByStream.values().stream().anyMatch(orders -> orders.size() < 3)) {
            UUID order = UUID.randomUUID();
            ordersByStream.computeIfAbsent(events.streamOf(order), any -> new ArrayList<>()).add(order);
        }
        ordersByStream.values().forEach(orders -> orders.forEach(order -> queue(order, 3)));

        relayEverything();

        for (String stream : events.streams()) {
            Set<UUID> inStream = streams().published(stream).stream().map(StreamedOrderEvent::orderId).collect(Collectors.toSet());
            assertThat(inStream).as("orders with events in %s", stream).containsAll(ordersByStream.get(stream));
            ordersByStream.forEach((other, orders) -> assertThat(other.equals(stream) || orders.stream().noneMatch(inStream::contains))
                    .as("no order of %s has events in %s", other, stream).isTrue());
        }
    }

    @Test
    void anOrdersEventsArePublishedInTheOrderTheyHappened() {
        relayEverything();
        UUID order = UUID.randomUUID();
        List<String> happened = queue(order, BATCH / 2);

        assertThat(delivery.relay()).isEqualTo(BATCH / 2);

        assertThat(streams().published().stream().filter(event -> event.orderId().equals(order)).map(event -> event.eventId().toString()))
                .containsExactlyElementsOf(happened);
    }

    @Test
    void aReadThatHoldsAnEventTwiceNotifiesOnce() {
        String order = UUID.randomUUID().toString();
        String created = event(UUID.randomUUID(), order, "created");
        String paid = event(UUID.randomUUID(), order, "paid");

        streams().publish(created, paid, created);
        notifications.poll();

        assertThat(Orders.value("SELECT string_agg(message, ' | ' ORDER BY id) FROM order_notifications WHERE order_id = ?", order))
                .isEqualTo("Your order is created. | Your order is paid.");
        assertThat(Orders.value("SELECT count(*) FROM processed_messages WHERE event_id = ?", eventIdOf(created))).isEqualTo("1");
        assertThat(streams().unacknowledged()).isZero();

        streams().publish(created);
        notifications.poll();

        assertThat(Orders.value("SELECT count(*) FROM order_notifications WHERE order_id = ?", order)).isEqualTo("2");
        assertThat(streams().unacknowledged()).isZero();
    }

    @Test
    void theGaugesShowHowManyEventsWaitAndForHowLong() {
        relayEverything();
        await().atMost(Duration.ofSeconds(5)).until(() -> pendingEvents() == 0 && lagSeconds() == 0);

        queue(UUID.randomUUID(), 5);

        await().atMost(Duration.ofSeconds(5)).until(() -> pendingEvents() == 5);
        assertThat(lagSeconds()).isPositive();
        List<String> scrape = Metrics.scrape().then().statusCode(200).extract().asString().lines().toList();
        assertThat(sample(scrape, "orders_outbox_pending{kind=\"order-event\"}")).isEqualTo(5);
        assertThat(sample(scrape, "orders_events_lag_seconds")).isPositive();

        relayEverything();

        await().atMost(Duration.ofSeconds(5)).until(() -> pendingEvents() == 0 && lagSeconds() == 0);
    }

    /** Relays until nothing is due; returns how many messages it took. */
    private int relayEverything() {
        int taken = 0;
        for (int batch = delivery.relay(); batch > 0; batch = delivery.relay()) {
            taken += batch;
        }
        return taken;
    }

    /** Queues events of one order in one transaction; returns their ids in the order they happened. */
    private List<String> queue(UUID order, int count) {
        List<String> eventIds = new ArrayList<>();
        QuarkusTransaction.requiringNew().run(() -> {
            for (int i = 0; i < count; i++) {
                UUID eventId = UUID.randomUUID();
                writer.enqueue(OrderEvents.KIND, order, "event:" + eventId, readTree(event(eventId, order.toString(), "created")));
                eventIds.add(eventId.toString());
            }
        });
        return eventIds;
    }

    private static String event(UUID eventId, String order, String type) {
        return "{\"eventId\":\"" + eventId + "\",\"type\":\"" + type + "\",\"orderId\":\"" + order
                + "\",\"customer\":\"bob\",\"at\":\"" + Instant.now() + "\"}";
    }

    private Object readTree(String eventJson) {
        try {
            return json.readTree(eventJson);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private String eventIdOf(String eventJson) {
        return StreamedOrderEvent.read(json, eventJson).eventId().toString();
    }

    private Streams streams() {
        return new Streams(events, redis, json);
    }

    private double pendingEvents() {
        return metrics.get("orders.outbox.pending").tag("kind", OrderEvents.KIND).gauge().value();
    }

    private double lagSeconds() {
        return metrics.get("orders.events.lag").gauge().value();
    }

    /** The value of the sample with this name and labels in a Prometheus scrape. */
    private static double sample(List<String> scrape, String nameAndLabels) {
        return scrape.stream().filter(line -> line.startsWith(nameAndLabels + " ")).map(line -> line.substring(nameAndLabels.length() + 1))
                .map(Double::parseDouble).findFirst().orElseThrow(() -> new AssertionError("No sample " + nameAndLabels));
    }
}
