package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.restassured.RestAssured.given;
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

/** Payments left PROCESSING by a request that crashed are settled by asking the provider, never by charging again. */
@QuarkusTest
@WithTestResource(TestServers.class)
class PaymentRecoveryTest {

    @Inject
    Payments payments;

    @Inject
    PaymentRecovery recovery;

    @Test
    void aCrashAfterTheChargeEndsPaidWithOneCharge() {
        String id = newOrder("alice");
        crashedPayment(id);
        // The crashed request had reached the provider, which charged.
        given().contentType(ContentType.JSON).header("Idempotency-Key", "payment:" + id)
                .body("{\"orderId\":\"" + id + "\",\"amount\":\"25.00\",\"currency\":\"CNY\"}")
                .post("/sandbox/payments/charges").then().statusCode(201);
        leaseRunsOut(id);

        recovery.recover();

        as("alice").get("/orders/{id}", id).then().body("status", equalTo("paid")).body("history[0].event", equalTo("pay"));
        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("SUCCESS");
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.chargeCalls()).as("recovery asked, it did not charge").isEqualTo(1);
    }

    @Test
    void aCrashBeforeTheChargeEndsFailedAndTheOrderCanBePaid() {
        String id = newOrder("alice");
        crashedPayment(id);
        leaseRunsOut(id);

        recovery.recover();

        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("FAILURE");
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));
        assertThat(Ledger.of(id).charges()).isZero();

        act("alice", id, "pay").then().statusCode(200).body("status", equalTo("paid"));
        assertThat(Ledger.of(id).charges()).isEqualTo(1);
    }

    @Test
    void aPaymentStillInItsLeaseIsLeftAlone() {
        String id = newOrder("alice");
        crashedPayment(id);

        recovery.recover();
        act("alice", id, "pay").then().statusCode(409).body("code", equalTo("payment-in-progress"));
        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("PROCESSING");
        assertThat(Ledger.of(id).chargeCalls()).isZero();
    }

    /** A pay request that claimed the payment and died. */
    private void crashedPayment(String id) {
        assertThat(payments.claim(UUID.fromString(id), new BigDecimal("25.00"), "CNY")).isPresent();
    }

    private static void leaseRunsOut(String id) {
        Orders.execute("UPDATE payments SET claimed_until = now() - interval '1 second' WHERE order_id = '" + UUID.fromString(id) + "'");
    }
}
