package io.orderflow.payment;

import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** Writes to a payment attempt are fenced: a holder whose claim was taken over can change nothing. */
@QuarkusTest
@WithTestResource(TestServers.class)
class PaymentStoreTest {

    @Inject
    PaymentStore payments;

    @Test
    void aLateWriterWhoseClaimWasTakenOverCannotChangeTheRow() {
        UUID order = UUID.fromString(newOrder("alice"));
        PaymentClaim slow = claim(order);
        leaseRunsOut(order);
        PaymentClaim current = claim(order);
        assertThat(current.key()).as("the same attempt, re-sent").isEqualTo(slow.key());
        assertThat(current.claimId()).isNotEqualTo(slow.claimId());

        assertThat(QuarkusTransaction.requiringNew().call(() -> payments.succeeded(slow, "late"))).isFalse();
        assertThat(payments.failed(slow, "declined")).isFalse();
        assertThat(payments.release(slow, Instant.now())).isFalse();
        assertThat(row(order)).isEqualTo("PROCESSING|null|" + current.claimId());

        assertThat(QuarkusTransaction.requiringNew().call(() -> payments.succeeded(current, "ch_1"))).isTrue();
        assertThat(row(order)).isEqualTo("SUCCESS|ch_1|" + current.claimId());
    }

    @Test
    void nothingTurnsASettledPaymentBack() {
        UUID order = UUID.fromString(newOrder("alice"));
        PaymentClaim holder = claim(order);
        assertThat(QuarkusTransaction.requiringNew().call(() -> payments.succeeded(holder, "ch_2"))).isTrue();

        // Not back to PROCESSING, not to FAILURE, not charged twice.
        assertThat(payments.release(holder, Instant.now())).isFalse();
        assertThat(payments.failed(holder, "declined")).isFalse();
        assertThat(QuarkusTransaction.requiringNew().call(() -> payments.succeeded(holder, "ch_other"))).isFalse();
        assertThat(payments.claimToCharge(order, new BigDecimal("25.00"), "CNY", "pm_card_visa")).isEmpty();
        assertThat(row(order)).isEqualTo("SUCCESS|ch_2|" + holder.claimId());

        QuarkusTransaction.requiringNew().run(() -> payments.refunded("ch_2"));
        assertThat(QuarkusTransaction.requiringNew().call(() -> payments.succeeded(holder, "ch_2"))).isFalse();
        assertThat(row(order)).isEqualTo("REFUNDED|ch_2|" + holder.claimId());
    }

    @Test
    void aNewAttemptFollowsOnlyACertainNotCharged() {
        UUID order = UUID.fromString(newOrder("alice"));
        PaymentClaim first = claim(order);
        assertThat(payments.claimToCharge(order, new BigDecimal("25.00"), "CNY", "pm_card_visa")).as("held").isEmpty();

        assertThat(payments.failed(first, "declined")).isTrue();
        PaymentClaim second = claim(order);
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(second.key()).isEqualTo("payment:" + order + ":2");
    }

    private PaymentClaim claim(UUID order) {
        return payments.claimToCharge(order, new BigDecimal("25.00"), "CNY", "pm_card_visa").orElseThrow();
    }

    private static String row(UUID order) {
        return Orders.value("SELECT status || '|' || coalesce(channel_transaction_id, 'null') || '|' || claim_id FROM payments "
                + "WHERE order_id = ? ORDER BY attempt DESC LIMIT 1", order.toString());
    }

    private static void leaseRunsOut(UUID order) {
        Orders.execute("UPDATE payments SET claimed_until = now() - interval '1 second' WHERE order_id = '" + order + "'");
    }
}
