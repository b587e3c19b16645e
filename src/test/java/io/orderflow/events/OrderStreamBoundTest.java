package io.orderflow.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.ManualDelivery;
import io.orderflow.support.TestServers;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** Publishing trims the order event stream: it stays near orders.events.max-length however many events pass. */
@QuarkusTest
@TestProfile(ManualDelivery.class)
@WithTestResource(TestServers.class)
class OrderStreamBoundTest {

    private static final int PUBLISHED = 10_000;
    /** Events one relay batch publishes in one round trip; each XADD trims on its own. */
    private static final int BATCH = 100;

    @Inject
    OrderEvents events;

    @Inject
    RedisDataSource redis;

    @Test
    void theStreamKeepsAboutItsMaximumLength() {
        // Events of one order, so that all go to one stream.
        UUID order = UUID.randomUUID();
        for (int batch = 0; batch < PUBLISHED / BATCH; batch++) {
            events.publish(Stream.generate(() -> new OrderEvents.Published(order, "{\"eventId\":\"" + UUID.randomUUID()
                    + "\",\"type\":\"created\",\"orderId\":\"" + order + "\",\"customer\":\"bob\",\"at\":\"2026-01-01T00:00:00Z\"}"))
                    .limit(BATCH).toList());
        }

        long length = redis.stream(String.class).xlen(events.streamOf(order));
        long nodeSize = redis.execute("CONFIG", "GET", "stream-node-max-entries").get("stream-node-max-entries").toLong();
        // MAXLEN ~ removes whole nodes of the stream only: it keeps the bound and less than one node more.
        assertThat(length).isGreaterThanOrEqualTo(ManualDelivery.STREAM_MAX_LENGTH).isLessThan(ManualDelivery.STREAM_MAX_LENGTH + nodeSize);
    }
}
