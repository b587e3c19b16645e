package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.orderflow.support.FakeProviders.Reply;
import io.orderflow.support.FakeProviders;
import io.orderflow.support.Metrics;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** Which provider answers are retried, and how, against providers whose answers the test scripts. */
@QuarkusTest
@WithTestResource(TestServers.class)
@WithTestResource(FakeProviders.class)
class ProviderRetryPolicyTest {

    private static final String CHARGES = "/payments/charges";
    private static final String SHIPMENTS = "/warehouse/shipments";
    private static final String REFUNDS = "/payments/refunds";

    @AfterEach
    void providersAnswerNormally() {
        FakeProviders.clearScripts();
    }

    @Test
    void aRefusalIsNotRetried() {
        String id = newOrder("alice");
        FakeProviders.script(CHARGES, Reply.status(400));

        act("alice", id, "pay").then().statusCode(502).body("code", equalTo("payment-provider-error"));
        assertThat(FakeProviders.calls(CHARGES, "payment:" + id + ":1")).hasSize(1);
        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("FAILURE");
    }

    @Test
    void aDeclineIsNotRetried() {
        String id = newOrder("alice");
        FakeProviders.script(CHARGES, Reply.status(402));

        act("alice", id, "pay").then().statusCode(402).body("code", equalTo("payment-declined"));
        assertThat(FakeProviders.calls(CHARGES, "payment:" + id + ":1")).hasSize(1);
    }

    @Test
    void aThrottledCallIsRetriedAfterItsRetryAfter() {
        String id = newOrder("alice");
        FakeProviders.script(CHARGES, new Reply(429, Map.of("Retry-After", "1")));

        act("alice", id, "pay").then().statusCode(200).body("status", equalTo("paid"));
        List<FakeProviders.Call> calls = FakeProviders.calls(CHARGES, "payment:" + id + ":1");
        assertThat(calls).hasSize(2);
        // Without Retry-After the first retry would follow after 10 to 20 ms.
        assertThat(Duration.between(calls.get(0).at(), calls.get(1).at())).isGreaterThanOrEqualTo(Duration.ofMillis(1000));
    }

    @Test
    void aLongRetryAfterIsCappedSoThePaymentAnswersWithinItsBudget() {
        String id = newOrder("alice");
        Reply busy = new Reply(503, Map.of("Retry-After", "90"));
        FakeProviders.script(CHARGES, busy, busy, busy, busy, busy, busy, busy, busy);

        long started = System.nanoTime();
        act("alice", id, "pay").then().statusCode(502).body("code", equalTo("payment-provider-unavailable"));
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        // Budget 3 s, waits capped at 1 s (FakeProviders' settings): a few attempts, then the answer, never a 90 s sleep.
        assertThat(took).isLessThan(Duration.ofSeconds(5));
        List<FakeProviders.Call> calls = FakeProviders.calls(CHARGES, "payment:" + id + ":1");
        assertThat(calls).hasSizeBetween(3, 5);
        for (int retry = 1; retry < calls.size(); retry++) {
            assertThat(Duration.between(calls.get(retry - 1).at(), calls.get(retry).at())).isLessThan(Duration.ofMillis(1300));
        }
    }

    @Test
    void serverErrorsAreRetriedWithTheSameKey() {
        String id = newOrder("alice");
        FakeProviders.script(CHARGES, Reply.status(503), Reply.status(500), Reply.status(502));

        act("alice", id, "pay").then().statusCode(200).body("status", equalTo("paid"));
        assertThat(FakeProviders.calls(CHARGES, "payment:" + id + ":1")).hasSize(4);
        Metrics.scrape().then().body(containsString("ft_retry_retries_total{method=\"io.orderflow.payment.PaymentGateway.charge\"}"));
        assertThat(Orders.value("SELECT channel_transaction_id FROM payments WHERE order_id = ?", id)).isEqualTo("fake-payment:" + id + ":1");
    }

    @Test
    void theWaitsBetweenAttemptsDoubleUpToTheCap() {
        String id = newOrder("alice");
        FakeProviders.script(CHARGES, Reply.status(503), Reply.status(503), Reply.status(503), Reply.status(503), Reply.status(503));

        act("alice", id, "pay").then().statusCode(200);
        List<FakeProviders.Call> calls = FakeProviders.calls(CHARGES, "payment:" + id + ":1");
        assertThat(calls).hasSize(6);
        // Base 20 ms, cap 1 s (FakeProviders' settings): ceilings 20, 40, 80, 160, 320; equal jitter waits half to all of each.
        long[] ceilings = { 20, 40, 80, 160, 320 };
        for (int retry = 0; retry < ceilings.length; retry++) {
            long wait = Duration.between(calls.get(retry).at(), calls.get(retry + 1).at()).toMillis();
            assertThat(wait).as("wait before retry %d", retry + 1).isBetween(ceilings[retry] / 2, ceilings[retry] + 100);
        }
    }

    @Test
    void aCancelAnswersAtOnceWhileTheProviderIsDownAndTheRefundFollowsFromTheOutbox() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        FakeProviders.script(REFUNDS, Reply.status(503), Reply.status(503));

        long started = System.nanoTime();
        act("alice", id, "cancel").then().statusCode(200).body("status", equalTo("cancelled"));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));

        String key = "refund:" + id;
        await().atMost(Duration.ofSeconds(10)).until(() -> "REFUNDED".equals(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)));
        assertThat(FakeProviders.calls(REFUNDS, key)).hasSize(3);
        assertThat(Orders.value("SELECT status FROM outbox_all WHERE idempotency_key = ?", key)).isEqualTo("DELIVERED");
    }

    @Test
    void aShipmentTheWarehouseNeverTakesIsDeadLetteredAndCanBeRetried() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        FakeProviders.script(SHIPMENTS, Reply.status(503), Reply.status(503), Reply.status(503));
        act("ops", id, "ship").then().statusCode(200);

        String key = "shipment:" + id;
        await().atMost(Duration.ofSeconds(10)).until(() -> "DEAD".equals(Orders.value("SELECT status FROM outbox WHERE idempotency_key = ?", key)));
        assertThat(Orders.value("SELECT attempts FROM outbox WHERE idempotency_key = ?", key)).isEqualTo("3");
        assertThat(FakeProviders.calls(SHIPMENTS, key)).hasSize(3);
        as("alice").get("/outbox/dead-letters").then().statusCode(403);
        String deadId = Orders.value("SELECT id FROM outbox WHERE idempotency_key = ?", key);
        as("ops").get("/outbox/dead-letters").then().statusCode(200).body("key", hasItem(key));

        as("ops").post("/outbox/dead-letters/{id}/retry", deadId).then().statusCode(204);
        await().atMost(Duration.ofSeconds(10)).until(() -> "DELIVERED".equals(Orders.value("SELECT status FROM outbox_all WHERE idempotency_key = ?", key)));
        assertThat(FakeProviders.calls(SHIPMENTS, key)).hasSize(4);
        as("ops").post("/outbox/dead-letters/{id}/retry", deadId).then().statusCode(404);
    }
}
