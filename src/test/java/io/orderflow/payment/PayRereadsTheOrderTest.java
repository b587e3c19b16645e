package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.math.BigDecimal;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A pay that finds another request's attempt open looks again; should that attempt fail meanwhile and the
 * customer cancel the order, the pay reads the order again before it starts an attempt of its own, and
 * charges nothing. The moment in between is made to happen by a trigger that plays the other request and
 * the cancel, right when the pay fails to take the open attempt over.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class PayRereadsTheOrderTest {

    @Inject
    PaymentStore payments;

    @AfterEach
    void nothingPlaysTheOthersAnyMore() {
        Orders.execute("DROP TRIGGER IF EXISTS meanwhile ON payments");
    }

    @Test
    void anOrderCancelledWhileThePayLookedIsNeverCharged() {
        String id = newOrder("alice");
        // Another request holds the order's first attempt, its lease still running.
        assertThat(payments.claimToCharge(UUID.fromString(id), new BigDecimal("25.00"), "CNY", "pm_card_visa")).isPresent();
        Orders.execute("""
                CREATE OR REPLACE FUNCTION meanwhile() RETURNS trigger AS $$
                BEGIN
                    IF pg_trigger_depth() > 1 THEN RETURN NULL; END IF;
                    UPDATE payments SET status = 'FAILURE', claimed_until = NULL, next_check_at = NULL, failure_reason = 'declined'
                    WHERE order_id = '%1$s' AND status = 'PROCESSING';
                    UPDATE orders SET status = 'cancelled', version = version + 1 WHERE id = '%1$s' AND status = 'created';
                    RETURN NULL;
                END $$ LANGUAGE plpgsql""".formatted(UUID.fromString(id)));
        Orders.execute("CREATE TRIGGER meanwhile AFTER UPDATE ON payments FOR EACH STATEMENT EXECUTE FUNCTION meanwhile()");

        act("alice", id, "pay").then().statusCode(409).body("code", equalTo("invalid-transition"))
                .body("currentStatus", equalTo("cancelled"));

        assertThat(Orders.values("SELECT idempotency_key || ' ' || status FROM payments WHERE order_id = ?", id))
                .containsExactly("payment:" + id + ":1 FAILURE");
        Ledger ledger = Ledger.of(id);
        assertThat(ledger.chargeCalls()).as("no attempt of the pay's own reached the provider").isZero();
        assertThat(ledger.charges()).isZero();
        assertThat(ledger.refunds()).isZero();
    }
}
