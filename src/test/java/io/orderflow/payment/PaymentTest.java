package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Paying, declining, refunding and shipping against the sandbox providers, counted at the provider. */
@QuarkusTest
@WithTestResource(TestServers.class)
class PaymentTest {

    @Test
    void payingChargesOnceWithTheOrdersKey() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200).body("status", equalTo("paid"));
        act("alice", id, "pay").then().statusCode(200).header("Idempotent-Replayed", "true");

        assertThat(Ledger.of(id)).isEqualTo(new Ledger(1, 0, 0, 1, 0, 0));
        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("SUCCESS");
        assertThat(Orders.value("SELECT idempotency_key FROM payments WHERE order_id = ?", id)).isEqualTo("payment:" + id + ":1");
    }

    @Test
    void aDeclinedChargeLeavesTheOrderOpen() {
        String id = placeOrder("alice", newToken("alice"),
                "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"DECLINE-51\",\"quantity\":1}]}").path("id");

        act("alice", id, "pay").then()
                .statusCode(402)
                .contentType("application/problem+json")
                .body("code", equalTo("payment-declined"));
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created")).body("allowedActions", equalTo(List.of("pay", "cancel")));
        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("FAILURE");
        assertThat(Ledger.of(id).charges()).isZero();
    }

    @Test
    void twoConcurrentPaymentsWithDifferentKeysChargeOnce() {
        for (int round = 0; round < 20; round++) {
            String id = newOrder("alice");
            List<Response> answers = Parallel.run(List.<Callable<Response>>of(() -> act("alice", id, "pay"), () -> act("alice", id, "pay")));

            assertThat(answers).extracting(Response::statusCode).as("round %d", round).allSatisfy(status -> assertThat(status).isIn(200, 409));
            assertThat(answers).extracting(Response::statusCode).contains(200);
            answers.stream().filter(answer -> answer.statusCode() == 409)
                    .forEach(answer -> assertThat(answer.<String>path("code")).isEqualTo("payment-in-progress"));
            Ledger ledger = Ledger.of(id);
            assertThat(ledger.charges()).as("charges in round %d", round).isEqualTo(1);
            assertThat(ledger.chargeCalls()).as("calls to the provider in round %d", round).isEqualTo(1);
        }
    }

    @Test
    void cancellingAPaidOrderRefundsOnceHoweverOftenItIsRepeated() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);

        act("alice", id, "cancel").then().statusCode(200).body("status", equalTo("cancelled"));
        // The provider answered, so the refund was made within the request.
        assertThat(Ledger.of(id).refunds()).isEqualTo(1);

        act("alice", id, "cancel").then().statusCode(200).header("Idempotent-Replayed", "true");
        Parallel.run(8, () -> act("ops", id, "cancel")).forEach(answer -> assertThat(answer.statusCode()).isEqualTo(200));
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.refunds()).isEqualTo(1);
        assertThat(ledger.refundCalls()).isEqualTo(1);
        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", id)).isEqualTo("REFUNDED");
    }

    @Test
    void cancellingAnUnpaidOrderRefundsNothing() {
        String id = newOrder("alice");
        act("alice", id, "cancel").then().statusCode(200);
        assertThat(Ledger.of(id)).isEqualTo(new Ledger(0, 0, 0, 0, 0, 0));
    }

    @Test
    void aShippedOrderReachesTheWarehouseOnce() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        act("ops", id, "ship").then().statusCode(200);
        act("ops", id, "ship").then().statusCode(200).header("Idempotent-Replayed", "true");

        await().atMost(Duration.ofSeconds(10)).until(() -> Ledger.of(id).shipments() == 1);
        assertThat(Ledger.of(id).shipmentCalls()).isEqualTo(1);
        assertThat(Orders.value("SELECT status FROM outbox_all WHERE idempotency_key = ?", "shipment:" + id)).isEqualTo("DELIVERED");
    }

    @Test
    void aPaymentTheDatabaseFailedToRecordIsRecordedOnTheRetryWithoutASecondCharge() {
        String id = newOrder("alice");
        Orders.execute("""
                CREATE OR REPLACE FUNCTION simulated_outage() RETURNS trigger LANGUAGE plpgsql AS
                $$ BEGIN RAISE EXCEPTION 'simulated outage' USING ERRCODE = '57P01'; END $$""");
        Orders.execute("CREATE TRIGGER simulated_outage BEFORE INSERT ON order_history FOR EACH ROW EXECUTE FUNCTION simulated_outage()");
        try {
            act("alice", id, "pay").then().statusCode(503).body("code", equalTo("service-unavailable"));
        } finally {
            Orders.execute("DROP TRIGGER IF EXISTS simulated_outage ON order_history");
        }
        as("alice").get("/orders/{id}", id).then().body("status", equalTo("created"));

        // The retry re-sends the same attempt; the provider answers its first charge.
        act("alice", id, "pay").then().statusCode(200).body("status", equalTo("paid"));
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.charges()).isEqualTo(1);
        assertThat(ledger.chargeCalls()).isEqualTo(2);
        assertThat(Orders.value("SELECT idempotency_key || ' ' || status FROM payments WHERE order_id = ?", id))
                .isEqualTo("payment:" + id + ":1 SUCCESS");
    }

    @Test
    void theLedgerIsForStaff() {
        String id = newOrder("alice");
        as("alice").queryParam("orderId", id).get("/sandbox/ledger").then().statusCode(403);
        as("ops").queryParam("orderId", "nonsense").get("/sandbox/ledger").then().statusCode(400);
    }
}
