package io.orderflow.events;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.StreamSupport;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.outbox.OutboxWriter;
import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.PrivateKafka;
import io.orderflow.support.TestServers;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The order event tests over Kafka (orders.events.transport=kafka) on a private KRaft broker: events
 * travel outbox -> topic, keyed by order id -> consumer group, in the order they happened; an event delivered
 * again, in the same read or a later one, has no second effect; the events a group member read and died
 * holding are taken over by another; an unreadable record does not hold up the ones behind it; and orders
 * placed while the broker is killed and started again have each of their events consumed exactly once.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
@WithTestResource(PrivateKafka.class)
class KafkaOrderEventTest {

    private static final Duration CONSUMED_WITHIN = Duration.ofSeconds(30);
    /** The least a broker allows by default (group.min.session.timeout.ms): how long the group waits for a member that died. */
    private static final int MEMBER_SESSION_TIMEOUT_MS = 6_000;

    @Inject
    EventsConfig config;

    @Inject
    OrderEvents events;

    @Inject
    RedisDataSource redis;

    @Inject
    MeterRegistry metrics;

    @Inject
    OutboxWriter outbox;

    @Inject
    ObjectMapper json;

    @Test
    void eachChangeOfAnOrderTravelsOnTheTopicKeyedByTheOrderAndNotifiesOnce() {
        String id = newOrder("alice");
        act("alice", id, "cancel").then().statusCode(200);

        await().atMost(CONSUMED_WITHIN).until(() -> notificationsFor(id) == 2);
        assertThat(Orders.value("SELECT string_agg(message, ' | ' ORDER BY id) FROM order_notifications WHERE order_id = ?", id))
                .isEqualTo("Your order is created. | Your order is cancelled.");
        List<ConsumerRecord<String, String>> records = await().atMost(CONSUMED_WITHIN).until(() -> recordsOf(id), found -> found.size() == 2);
        assertThat(records).extracting(ConsumerRecord::partition).containsOnly(records.get(0).partition());
        assertThat(records.get(0).value()).contains("\"type\":\"created\"");
        assertThat(records.get(1).value()).contains("\"type\":\"cancelled\"");
        assertThat(redis.key(String.class).exists(events.streamOf(UUID.fromString(id)))).as("a Redis stream of order events").isFalse();
    }

    @Test
    void anEventDeliveredAgainNotifiesOnce() throws Exception {
        String id = newOrder("bob");
        await().atMost(CONSUMED_WITHIN).until(() -> notificationsFor(id) == 1);
        String created = Orders.value("SELECT payload FROM outbox_all WHERE kind = 'order-event' AND order_id = ?", id);

        // The topic holds the same event twice more (a producer that retried, a replayed partition).
        publish(id, created, created);
        String after = newOrder("bob");
        await().atMost(CONSUMED_WITHIN).until(() -> notificationsFor(after) == 1);

        assertThat(notificationsFor(id)).isEqualTo(1);
        assertThat(Orders.value("SELECT count(*) FROM processed_messages WHERE event_id = CAST(? AS uuid)", eventIdOf(created)))
                .isEqualTo("1");
    }

    @Test
    void anOrdersEventsAreConsumedInTheOrderTheyHappened() {
        UUID order = UUID.randomUUID();
        List<String> happened = new ArrayList<>();
        QuarkusTransaction.requiringNew().run(() -> {
            for (int i = 0; i < 20; i++) {
                String eventId = UUID.randomUUID().toString();
                outbox.enqueue(OrderEvents.KIND, order, "event:" + eventId, readTree(event(eventId, order.toString(), "created")));
                happened.add(eventId);
            }
        });

        await().atMost(CONSUMED_WITHIN).until(() -> notificationsFor(order.toString()) == happened.size());
        assertThat(Orders.value("SELECT string_agg(CAST(event_id AS text), ',' ORDER BY id) FROM order_notifications WHERE order_id = ?",
                order.toString())).isEqualTo(String.join(",", happened));
        assertThat(recordsOf(order.toString())).extracting(record -> eventIdOf(record.value())).containsExactlyElementsOf(happened);
    }

    @Test
    void aReadThatHoldsEventsTwiceNotifiesOnceEachInTheOrderTheyHappened() throws Exception {
        String order = UUID.randomUUID().toString();
        String created = event(UUID.randomUUID().toString(), order, "created");
        String paid = event(UUID.randomUUID().toString(), order, "paid");
        String shipped = event(UUID.randomUUID().toString(), order, "shipped");
        String delivered = event(UUID.randomUUID().toString(), order, "delivered");

        // Sent at once, so read in one poll or a few; the last is read after every other, as they share a partition.
        publish(order, created, paid, created, shipped, paid, created, delivered);

        await().atMost(CONSUMED_WITHIN).until(() -> "1".equals(Orders.value(
                "SELECT count(*) FROM order_notifications WHERE order_id = ? AND message = 'Your order is delivered.'", order)));
        assertThat(Orders.value("SELECT string_agg(message, ' | ' ORDER BY id) FROM order_notifications WHERE order_id = ?", order))
                .isEqualTo("Your order is created. | Your order is paid. | Your order is shipped. | Your order is delivered.");
        assertThat(Orders.value("SELECT count(*) FROM processed_messages WHERE event_id = CAST(? AS uuid)", eventIdOf(created))).isEqualTo("1");
    }

    @Test
    void theEventsAGroupMemberReadAndDiedHoldingAreTakenOverByAnother() throws Exception {
        String id = newOrder("bob");
        await().atMost(CONSUMED_WITHIN).until(() -> notificationsFor(id) == 1);
        String shipped = event(UUID.randomUUID().toString(), id, "shipped");

        long diedAt;
        try (KafkaConsumer<String, String> member = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, PrivateKafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, OrderEventHandler.GROUP,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, MEMBER_SESSION_TIMEOUT_MS),
                new StringDeserializer(), new StringDeserializer())) {
            // Another instance joins the group and is given some of the topic's partitions.
            member.subscribe(List.of(config.kafka().topic()));
            await().atMost(CONSUMED_WITHIN).until(() -> {
                member.poll(Duration.ofMillis(100));
                return !member.assignment().isEmpty();
            });
            int held = member.assignment().iterator().next().partition();

            // It reads the order's next event from one of them, and dies before committing: no commit, no goodbye to the group.
            publish(held, id, shipped);
            await().atMost(CONSUMED_WITHIN).until(() -> StreamSupport.stream(member.poll(Duration.ofMillis(100)).spliterator(), false)
                    .anyMatch(record -> record.value().equals(shipped)));
            assertThat(notificationsFor(id)).as("notified while the member that read the event holds its partition").isOne();
            member.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP));
            diedAt = System.nanoTime();
        }

        await().atMost(CONSUMED_WITHIN).until(() -> notificationsFor(id) == 2);
        System.out.printf("[kafka] an event read by a group member that died uncommitted was consumed by the app's consumer %d ms after"
                + " (the member's session timeout %d ms)%n", Duration.ofNanos(System.nanoTime() - diedAt).toMillis(), MEMBER_SESSION_TIMEOUT_MS);
        assertThat(Orders.value("SELECT message FROM order_notifications WHERE order_id = ? ORDER BY id DESC LIMIT 1", id))
                .isEqualTo("Your order is shipped.");
        assertThat(Orders.value("SELECT count(*) FROM processed_messages WHERE event_id = CAST(? AS uuid)", eventIdOf(shipped))).isEqualTo("1");
    }

    @Test
    void unreadableRecordsAreDeadLetteredAndTheEventsBehindThemConsumed() throws Exception {
        double deadLettersBefore = metrics.counter("orders.events.dead-letters").count();
        String someOrder = UUID.randomUUID().toString();
        publish(someOrder, "not JSON at all " + "x".repeat(100_000), """
                {"eventId":"not-a-uuid","type":"created","orderId":"%s","customer":"bob"}""".formatted(someOrder), """
                {"eventId":"%s","type":"created","orderId":"%s","customer":"bo\\u0000b"}""".formatted(UUID.randomUUID(), someOrder));

        String id = newOrder("bob");

        await().atMost(CONSUMED_WITHIN).until(() -> notificationsFor(id) == 1);
        await().atMost(CONSUMED_WITHIN).until(() -> metrics.counter("orders.events.dead-letters").count() - deadLettersBefore == 3);
    }

    @Test
    void ordersPlacedWhileTheBrokerIsKilledAndStartedAgainNotifyOnceEach() {
        int orders = 40;
        List<String> ids = Collections.synchronizedList(new ArrayList<>());
        AtomicLong waitingAtRestart = new AtomicLong();
        AtomicLong restartedAt = new AtomicLong();
        // Customers keep ordering all along; the broker dies a quarter of the way in and is back at three quarters.
        Parallel.rounds(orders, 4, round -> {
            if (round == orders / 4) {
                PrivateKafka.killBroker();
            } else if (round == 3 * orders / 4) {
                await().atMost(CONSUMED_WITHIN).until(() -> unpublishedEvents() > 0);
                waitingAtRestart.set(unpublishedEvents());
                PrivateKafka.startBroker();
                restartedAt.set(System.nanoTime());
            }
            ids.add(newOrder(round % 2 == 0 ? "alice" : "bob"));
        });

        await().atMost(Duration.ofSeconds(90)).until(() -> ids.stream().allMatch(id -> notificationsFor(id) >= 1));
        long consumedAfter = Duration.ofNanos(System.nanoTime() - restartedAt.get()).toMillis();
        await().atMost(CONSUMED_WITHIN).until(() -> unpublishedEvents() == 0);
        System.out.printf("[kafka] broker killed and started again mid-load: %d orders, %d events waiting in the outbox at the restart,"
                + " every order's event consumed %d ms after it%n", orders, waitingAtRestart.get(), consumedAfter);
        assertThat(ids).hasSize(orders).allSatisfy(id -> assertThat(notificationsFor(id)).as("notifications of " + id).isOne());
        assertThat(Orders.value("SELECT count(*) FROM processed_messages p JOIN outbox_delivered d ON d.idempotency_key = 'event:' || p.event_id "
                + "WHERE d.order_id = ANY(CAST(? AS uuid[]))", "{" + String.join(",", ids) + "}")).isEqualTo(Integer.toString(orders));
    }

    /** Sends the values with this key, to the partition the key goes to, in this order. */
    private void publish(String key, String... values) throws Exception {
        publish(null, key, values);
    }

    private void publish(Integer partition, String key, String... values) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                PrivateKafka.bootstrapServers()), new StringSerializer(), new StringSerializer())) {
            for (String value : values) {
                producer.send(new ProducerRecord<>(config.kafka().topic(), partition, key, value)).get(10, TimeUnit.SECONDS);
            }
        }
    }

    private static String event(String eventId, String orderId, String type) {
        return """
                {"eventId":"%s","type":"%s","orderId":"%s","customer":"bob","at":"%s"}""".formatted(eventId, type, orderId, Instant.now());
    }

    private String eventIdOf(String eventJson) {
        return StreamedOrderEvent.read(json, eventJson).eventId().toString();
    }

    private JsonNode readTree(String eventJson) {
        try {
            return json.readTree(eventJson);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The records of this order on the topic, read from the start by a consumer of the test's own. */
    private List<ConsumerRecord<String, String>> recordsOf(String orderId) {
        try (KafkaConsumer<String, String> reader = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                PrivateKafka.bootstrapServers(), ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer())) {
            reader.subscribe(List.of(config.kafka().topic()));
            List<ConsumerRecord<String, String>> found = new ArrayList<>();
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < until) {
                reader.poll(Duration.ofMillis(200)).forEach(record -> {
                    if (orderId.equals(record.key())) {
                        found.add(record);
                    }
                });
            }
            return found;
        }
    }

    private static long unpublishedEvents() {
        return Long.parseLong(Orders.value("SELECT count(*) FROM outbox WHERE kind = 'order-event'"));
    }

    private static int notificationsFor(String orderId) {
        return Integer.parseInt(Orders.value("SELECT count(*) FROM order_notifications WHERE order_id = ?", orderId));
    }
}
