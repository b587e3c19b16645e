package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.asProviderClient;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.math.BigDecimal;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Payment attempts left PROCESSING by a request that gave up or crashed are settled only by a certain
 * answer of the provider, never by charging again and never by "not found once".
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class PaymentRecoveryTest {

    @Inject
    PaymentStore payments;

    @Inject
    PaymentRecovery recovery;

    @Test
    void aCrashAfterTheChargeEndsPaidWithOneCharge() {
        String id = newOrder("alice");
        crashedPayment(id);
        // The crashed request had reached the provider, which charged.
        chargeAtTheProvider(id).then().statusCode(201);
        leaseRunsOut(id);

        recovery.recover();

        as("alice").get("/orders/{id}", id).then().body("status", equalTo("paid")).body("history[0].event", equalTo("pay"));
        assertThat(paymentStatus(id)).isEqualTo("SUCCESS");
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.chargeCalls()).as("recovery asked, it did not charge").isEqualTo(1);
    }

    @Test
    void aChargeNotFoundYetStaysUnknownUntilTheProcessingHorizonThenItsKeyIsVoided() {
        String id = newOrder("alice");
        crashedPayment(id);
        leaseRunsOut(id);

        // The provider has not seen the key (yet): the charge may still be on its way, so nothing is concluded.
        recovery.recover();
        assertThat(paymentStatus(id)).isEqualTo("PROCESSING");
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));

        // Past the horizon the key is voided, which settles it: the provider will never charge with it.
        Orders.execute("UPDATE payments SET sent_at = now() - interval '1 hour' WHERE order_id = '" + UUID.fromString(id) + "'");
        leaseRunsOut(id);
        recovery.recover();
        assertThat(paymentStatus(id)).isEqualTo("FAILURE");
        assertThat(Orders.value("SELECT failure_reason FROM payments WHERE order_id = ?", id)).isEqualTo("voided");
        chargeAtTheProvider(id).then().statusCode(410).body("status", equalTo("voided"));

        // The customer pays again under a new attempt's key.
        act("alice", id, "pay").then().statusCode(200).body("status", equalTo("paid"));
        assertThat(Orders.value("SELECT idempotency_key FROM payments WHERE order_id = ? AND status = 'SUCCESS'", id))
                .isEqualTo("payment:" + id + ":2");
        assertThat(Ledger.of(id).charges()).isEqualTo(1);
    }

    @Test
    void anUnknownPaymentOfACancelledOrderIsVoidedAtOnce() {
        String id = newOrder("alice");
        crashedPayment(id);
        act("alice", id, "cancel").then().statusCode(200);
        leaseRunsOut(id);

        recovery.recover();

        assertThat(paymentStatus(id)).isEqualTo("FAILURE");
        chargeAtTheProvider(id).then().statusCode(410);
        assertThat(Ledger.of(id).charges()).isZero();
    }

    @Test
    void aChargeThatLandedForACancelledOrderIsRefunded() {
        String id = newOrder("alice");
        crashedPayment(id);
        chargeAtTheProvider(id).then().statusCode(201);
        act("alice", id, "cancel").then().statusCode(200);
        leaseRunsOut(id);

        recovery.recover();

        as("alice").get("/orders/{id}", id).then().body("status", equalTo("cancelled"));
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.refunds()).isEqualTo(1);
        assertThat(paymentStatus(id)).isEqualTo("REFUNDED");
    }

    @Test
    void aPaymentStillInItsLeaseIsLeftAlone() {
        String id = newOrder("alice");
        crashedPayment(id);

        recovery.recover();
        act("alice", id, "pay").then().statusCode(409).body("code", equalTo("payment-in-progress"));
        assertThat(paymentStatus(id)).isEqualTo("PROCESSING");
        assertThat(Ledger.of(id).chargeCalls()).isZero();
    }

    /** A pay request that claimed the payment and died. */
    private void crashedPayment(String id) {
        assertThat(payments.claimToCharge(UUID.fromString(id), new BigDecimal("25.00"), "CNY", "pm_card_visa")).isPresent();
    }

    private static Response chargeAtTheProvider(String id) {
        return asProviderClient().contentType(ContentType.JSON).header("Idempotency-Key", "payment:" + id + ":1")
                .body("{\"orderId\":\"" + id + "\",\"amount\":\"25.00\",\"currency\":\"CNY\"}")
                .post("/sandbox/payments/charges");
    }

    private static String paymentStatus(String id) {
        return Orders.value("SELECT status FROM payments WHERE order_id = ? ORDER BY attempt DESC LIMIT 1", id);
    }

    private static void leaseRunsOut(String id) {
        Orders.execute("UPDATE payments SET claimed_until = now() - interval '1 second', next_check_at = now() - interval '1 second' "
                + "WHERE order_id = '" + UUID.fromString(id) + "'");
    }
}
