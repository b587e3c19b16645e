package io.orderflow.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

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

    @Inject
    OrderEvents events;

    @Inject
    RedisDataSource redis;

    @Test
    void theStreamKeepsAboutItsMaximumLength() {
        for (int i = 0; i < PUBLISHED; i++) {
            events.publish("{\"eventId\":\"" + UUID.randomUUID() + "\",\"type\":\"created\",\"orderId\":\"" + UUID.randomUUID()
                    + "\",\"customer\":\"bob\",\"at\":\"2026-01-01T00:00:00Z\"}");
        }

        long length = redis.stream(String.class).xlen(events.stream());
        long nodeSize = redis.execute("CONFIG", "GET", "stream-node-max-entries").get("stream-node-max-entries").toLong();
        // MAXLEN ~ removes whole nodes of the stream only: it keeps the bound and less than one node more.
        assertThat(length).isGreaterThanOrEqualTo(ManualDelivery.STREAM_MAX_LENGTH).isLessThan(ManualDelivery.STREAM_MAX_LENGTH + nodeSize);
    }
}
