package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.orderflow.support.HeldProviderKey;
import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * A provider slower than the whole retry budget: every call takes 3 s, the service gives up after
 * 1.5 s and answers 502, and the charge lands afterwards. The payment converges on what the provider
 * did: paid with one charge, or, when the order was cancelled after the 502, one charge and one refund.
 */
@QuarkusTest
@TestProfile(SlowProviderTest.SlowProvider.class)
@WithTestResource(TestServers.class)
class SlowProviderTest {

    public static class SlowProvider implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.ofEntries(
                    Map.entry("orders.sandbox.latency", "3s"),
                    Map.entry("io.orderflow.payment.PaymentGateway/Timeout/value", "500"),
                    Map.entry("io.orderflow.payment.PaymentGateway/Timeout/unit", "MILLIS"),
                    Map.entry("io.orderflow.payment.PaymentGateway/Retry/delay", "50"),
                    Map.entry("io.orderflow.payment.PaymentGateway/Retry/maxDuration", "1500"),
                    Map.entry("io.orderflow.payment.PaymentGateway/Retry/durationUnit", "MILLIS"),
                    Map.entry("orders.downstream.max-delay", "300ms"),
                    Map.entry("orders.payments.recovery-interval", "200ms"),
                    Map.entry("orders.outbox.base-delay", "200ms"),
                    Map.entry("orders.outbox.poll-interval", "200ms"));
        }
    }

    @Test
    void aChargeThatLandsAfterThe502EndsPaidWithOneCharge() {
        String id = newOrder("alice");

        // The provider starts the charge only once the service has answered 502 and the order is seen unpaid.
        try (HeldProviderKey held = HeldProviderKey.charge(Payment.keyFor(UUID.fromString(id), 1))) {
            act("alice", id, "pay").then().statusCode(502).body("code", equalTo("payment-provider-unavailable"));
            as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> "paid".equals(as("alice").get("/orders/{id}", id).path("status")));
        Response ledger = as("ops").queryParam("orderId", id).get("/sandbox/ledger");
        assertThat(ledger.<List<?>>path("charges")).hasSize(1);
        assertThat(ledger.<List<?>>path("refunds")).isEmpty();
        assertThat(Orders.value("SELECT status || ' ' || channel_transaction_id FROM payments WHERE order_id = ?", id))
                .isEqualTo("SUCCESS " + ledger.path("charges[0].reference"));
        assertNoChargeWithoutAPaidOrderOrARefund();
    }

    @Test
    void cancelledAfterThe502TheChargeThatLandsIsRefundedOnce() {
        String id = newOrder("alice");

        act("alice", id, "pay").then().statusCode(502);
        act("alice", id, "cancel").then().statusCode(200).body("status", equalTo("cancelled"));

        await().atMost(Duration.ofSeconds(30)).until(() -> "REFUNDED".equals(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)));
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("cancelled"));
        Response ledger = as("ops").queryParam("orderId", id).get("/sandbox/ledger");
        assertThat(ledger.<List<?>>path("charges")).hasSize(1);
        assertThat(ledger.<List<?>>path("refunds")).hasSize(1);
        assertThat(ledger.<String>path("refunds[0].charge")).isEqualTo(ledger.path("charges[0].reference"));
        assertThat(Orders.value("SELECT channel_transaction_id FROM payments WHERE order_id = ?", id))
                .isEqualTo(ledger.path("charges[0].reference"));
        assertThat(Ledger.of(id).charges()).isEqualTo(1);
        assertNoChargeWithoutAPaidOrderOrARefund();
    }

    /** The reconciliation job's report: every charge is matched by a paid order or refunded. */
    private static void assertNoChargeWithoutAPaidOrderOrARefund() {
        Response report = as("ops").post("/payments/reconciliation");
        report.then().statusCode(200);
        assertThat(report.<List<?>>path("mismatches")).isEmpty();
        assertThat(report.<Integer>path("charges")).isPositive();
        assertThat(report.<Integer>path("matched") + report.<Integer>path("refunded") + report.<Integer>path("refundPending"))
                .isEqualTo(report.<Integer>path("charges"));
    }
}
