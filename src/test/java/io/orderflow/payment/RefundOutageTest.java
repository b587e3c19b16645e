package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.orderflow.outbox.OutboxConfig;
import io.orderflow.support.FakeProviders.Call;
import io.orderflow.support.FakeProviders.Reply;
import io.orderflow.support.FakeProviders;
import io.orderflow.support.Ledger;
import io.orderflow.support.Metrics;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/**
 * Money owed to a customer is never given up on: a refund the provider refuses for longer than the
 * outbox's attempts budget stays in line, counts as overdue, and is made exactly once when the
 * provider recovers. The provider is the app's sandbox behind FakeProviders, which refuses refunds
 * while the test says so.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
@WithTestResource(FakeProviders.class)
class RefundOutageTest {

    private static final String REFUNDS = "/payments/refunds";

    @Inject
    OutboxConfig outbox;

    @BeforeEach
    void theSandboxIsTheProvider() {
        FakeProviders.forwardTo(URI.create("http://127.0.0.1:" + RestAssured.port + "/sandbox"));
    }

    @AfterEach
    void providersAnswerNormally() {
        FakeProviders.clearScripts();
    }

    @Test
    void aRefundRefusedPastTheAttemptsBudgetIsMadeOnceWhenTheProviderRecovers() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        String key = "refund:" + id;
        FakeProviders.outage(REFUNDS, Reply.status(503));

        act("alice", id, "cancel").then().statusCode(200).body("status", equalTo("cancelled"));

        await().atMost(Duration.ofSeconds(20))
                .until(() -> attempts(key) > outbox.maxAttempts() || "DEAD".equals(outboxStatus(key)));
        assertThat(outboxStatus(key)).as("a refund past the attempts budget").isEqualTo("PENDING");
        // The customer reads that the money is owed to them, and nothing about the provider's outage.
        as("alice").get("/orders/{id}", id).then().statusCode(200)
                .body("refund.state", equalTo("owed")).body("refund.amount", equalTo("25.00")).body("refund.currency", equalTo("CNY"))
                .body("refund.reason", nullValue());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(overdueRefunds())
                .as("orders_refunds_overdue while the refund is %s", Orders.value("SELECT row_to_json(o)::text FROM outbox o WHERE idempotency_key = ?", key))
                .isPositive());

        FakeProviders.endScript(REFUNDS);

        await().atMost(Duration.ofSeconds(10)).until(() -> "REFUNDED".equals(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)));
        assertThat(outboxStatus(key)).isEqualTo("DELIVERED");
        as("alice").get("/orders/{id}", id).then().statusCode(200).body("refund.state", equalTo("made"));
        List<Call> calls = FakeProviders.calls(REFUNDS, key);
        assertThat(calls.stream().filter(call -> call.status() == 503).count()).isGreaterThan(outbox.maxAttempts());
        assertThat(calls.stream().filter(call -> call.status() < 300)).as("refund calls that succeeded").hasSize(1);
        assertThat(Ledger.of(id).refunds()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> overdueRefunds() == 0);

        as("ops").post("/payments/reconciliation").then().statusCode(200)
                .body("mismatches.size()", equalTo(0))
                .body("refundPending", equalTo(0))
                .body("refunded", greaterThanOrEqualTo(1));
    }

    private static String outboxStatus(String key) {
        return Orders.value("SELECT status FROM outbox_all WHERE idempotency_key = ?", key);
    }

    private static int attempts(String key) {
        String attempts = Orders.value("SELECT attempts FROM outbox_all WHERE idempotency_key = ?", key);
        return attempts == null ? 0 : Integer.parseInt(attempts);
    }

    /** orders_refunds_overdue as Prometheus scrapes it. */
    private static double overdueRefunds() {
        return Metrics.value("orders_refunds_overdue");
    }
}
