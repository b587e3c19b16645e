package io.orderflow.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.outbox.OutboxDelivery.Lease;
import io.orderflow.outbox.OutboxDelivery.Outcome;
import io.orderflow.shared.downstream.DownstreamUnavailableException;
import io.orderflow.support.ManualDelivery;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Two relays and one message: a relay whose lease lapsed and was taken over by another neither
 * attempts the message any more nor records an outcome over the other's. Nothing relays on its own
 * here, so the test plays both relays.
 */
@QuarkusTest
@TestProfile(ManualDelivery.class)
@WithTestResource(TestServers.class)
class OutboxLeaseTest {

    private static final Duration SHORT_LEASE = Duration.ofMillis(200);

    @Inject
    OutboxWriter writer;

    @Inject
    OutboxDelivery delivery;

    @Inject
    OutboxConfig config;

    @Inject
    ScriptedHandler handler;

    @Test
    void aRelayThatCameTooLateDoesNotAttemptAMessageAnotherTookOver() {
        String key = enqueue();
        Lease first = delivery.takeByKeys(List.of(key), SHORT_LEASE);
        assertThat(first.messages()).hasSize(1);
        long id = first.messages().get(0).id;

        // The first relay is busy with earlier messages (or died) until its lease lapses; a second relay takes the message.
        Lease second = takenOverOnceLapsed(key);

        assertThat(delivery.attempt(id, first)).isEqualTo(Outcome.TAKEN_OVER);
        assertThat(handler.attempts(key)).isZero();
        assertThat(delivery.attempt(id, second)).isEqualTo(Outcome.DELIVERED);
        assertThat(handler.attempts(key)).isOne();
        assertThat(row(key)).isEqualTo("DELIVERED 1");
    }

    @Test
    void aRelayWhoseAttemptOutlastedItsLeaseCannotRecordItsOutcome() throws Exception {
        String key = enqueue();
        CountDownLatch attempting = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // The first attempt hangs until released, then succeeds; the second one fails.
        handler.script(key, () -> {
            attempting.countDown();
            awaitQuietly(release);
        }, () -> {
            throw new DownstreamUnavailableException(503, null);
        });
        Lease first = delivery.takeByKeys(List.of(key), SHORT_LEASE);
        long id = first.messages().get(0).id;
        CompletableFuture<Outcome> slowAttempt = CompletableFuture.supplyAsync(() -> delivery.attempt(id, first));
        assertThat(attempting.await(10, TimeUnit.SECONDS)).isTrue();

        Lease second = takenOverOnceLapsed(key);
        assertThat(delivery.attempt(id, second)).isEqualTo(Outcome.RETRY);
        release.countDown();

        assertThat(slowAttempt.get(10, TimeUnit.SECONDS)).isEqualTo(Outcome.LEASE_LOST);
        assertThat(row(key)).as("the relay that holds the message recorded its outcome, the late one did not").isEqualTo("PENDING 1");
        assertThat(Orders.value("SELECT last_error_code FROM outbox WHERE idempotency_key = ?", key)).isEqualTo("provider-unavailable");
    }

    @Test
    void aStoppingRelayHandsBackWhatItTookButHasNotAttempted() {
        List<String> keys = List.of(enqueue(), enqueue(), enqueue());
        AtomicBoolean stopping = new AtomicBoolean();
        // SIGTERM arrives while the first message is attempted.
        handler.script(keys.get(0), () -> stopping.set(true));
        Lease lease = delivery.takeByKeys(keys, config.lease());
        assertThat(lease.messages()).hasSize(3);

        delivery.deliver(lease, stopping::get);

        assertThat(keys.stream().map(handler::attempts)).containsExactly(1L, 0L, 0L);
        assertThat(row(keys.get(0))).isEqualTo("DELIVERED 1");
        for (String handedBack : keys.subList(1, 3)) {
            assertThat(Orders.value("SELECT status || ' ' || (lease_id IS NULL) || ' ' || (next_attempt_at <= now()) FROM outbox WHERE idempotency_key = ?",
                    handedBack)).as("no lease, due at once").isEqualTo("PENDING true true");
        }
        // Another relay takes them at once rather than after the lease.
        Lease next = delivery.takeByKeys(keys, config.lease());
        assertThat(next.messages()).hasSize(2);
        delivery.deliver(next, () -> false);
        assertThat(keys.stream().map(OutboxLeaseTest::row)).containsOnly("DELIVERED 1");
    }

    /** A second relay's lease on the message, as soon as the first one's has lapsed. */
    private Lease takenOverOnceLapsed(String key) {
        return await().atMost(Duration.ofSeconds(10))
                .until(() -> delivery.takeByKeys(List.of(key), config.lease()), lease -> !lease.messages().isEmpty());
    }

    private String enqueue() {
        String key = "lease-test:" + UUID.randomUUID();
        QuarkusTransaction.requiringNew().run(() -> writer.enqueue(ScriptedHandler.KIND, UUID.randomUUID(), key, Map.of()));
        return key;
    }

    private static String row(String key) {
        return Orders.value("SELECT status || ' ' || attempts FROM outbox_all WHERE idempotency_key = ?", key);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
