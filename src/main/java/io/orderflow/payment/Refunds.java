package io.orderflow.payment;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.order.OrderStatusChanged;
import io.orderflow.order.OrderStatusChanges;
import io.orderflow.order.OrderTransitions;
import io.orderflow.outbox.OutboxBacklog;
import io.orderflow.outbox.OutboxDelivery;
import io.orderflow.outbox.OutboxHandler;
import io.orderflow.outbox.MessageRefusedException;
import io.orderflow.outbox.OutboxMessage;
import io.orderflow.outbox.OutboxWriter;
import io.orderflow.shared.StoredJson;
import io.orderflow.shared.downstream.DownstreamRefusedException;
import io.orderflow.shared.logging.BusinessEvent;
import io.orderflow.shared.metrics.AppGauges;
import io.orderflow.shared.metrics.Counters;
import io.orderflow.shared.money.Money;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;

/**
 * Gives charges back: queues each refund in the outbox, in the transaction that calls for it, under its
 * key ({@code refund:{orderId}} for the charge that paid an order or landed after it was cancelled,
 * {@code refund:{chargeKey}} for any other charge, which no order asked for), tries it at once after
 * that transaction commits, then delivers it to the provider and marks the payment REFUNDED. A refund
 * is never given up: the outbox retries it for as long as it takes. One owed for longer than
 * {@code orders.payments.refund-overdue-after} is counted in {@code orders_refunds_overdue} and each
 * of its failed attempts is logged as a warning. Only the provider's definite refusal (already
 * refunded, charge too old: an answer that says it did nothing) ends it: it leaves the line as
 * {@code refund-refused} with the provider's reason, counted in {@code orders_refunds_refused_total},
 * and waits for staff to settle it ({@link RefusedRefunds}).
 */
@Startup
@ApplicationScoped
class Refunds implements OutboxHandler {

    static final String KIND = "refund";
    /** The provider does not know our API key: nothing is wrong with the refund, which is made once the key is right. */
    private static final int UNAUTHENTICATED = 401;
    private static final Logger LOG = Logger.getLogger(Refunds.class);
    /** The gauge counts at most this often, so a scrape costs at most one query. */
    private static final Duration COUNT_MAX_AGE = Duration.ofSeconds(1);

    /** Overdue refunds, as counted at one moment. */
    private record Overdue(long refunds, Instant countedAt) {
    }

    private final PaymentGateway gateway;
    private final PaymentStore payments;
    private final OutboxWriter outbox;
    private final OutboxDelivery outboxDelivery;
    private final OutboxBacklog outboxBacklog;
    private final Duration overdueAfter;
    private final StoredJson json;
    private final Counter refusedForGood;
    private volatile Overdue overdue;

    Refunds(PaymentGateway gateway, PaymentStore payments, OutboxWriter outbox, OutboxDelivery outboxDelivery,
            OutboxBacklog outboxBacklog, PaymentConfig config, StoredJson json, MeterRegistry metrics) {
        this.gateway = gateway;
        this.payments = payments;
        this.outbox = outbox;
        this.outboxDelivery = outboxDelivery;
        this.outboxBacklog = outboxBacklog;
        this.overdueAfter = config.refundOverdueAfter();
        this.json = json;
        this.refusedForGood = Counters.single(metrics, "orders.refunds.refused", "Refunds the provider refused for good; each waits for staff to settle it");
    }

    void registerGauge(@Observes StartupEvent start, AppGauges gauges) {
        gauges.register(Gauge.builder("orders.refunds.overdue", this, Refunds::overdue)
                .description("Refunds owed to customers for longer than orders.payments.refund-overdue-after and not made yet"));
    }

    /** The key of the refund of the charge that paid an order (or landed after it was cancelled). */
    private static String keyFor(UUID orderId) {
        return "refund:" + orderId;
    }

    /** The key of the refund of any further charge of an order, which no order of ours asked for. */
    private static String strayKeyFor(String chargeKey) {
        return "refund:" + chargeKey;
    }

    /** A paid order that is cancelled gets its money back, exactly once, through the outbox. */
    void refundOnCancel(@Observes(during = TransactionPhase.IN_PROGRESS) OrderStatusChanges changes) {
        paidThenCancelled(changes).forEach(change -> {
            Payment payment = payments.charged(change.orderId())
                    .orElseThrow(() -> new IllegalStateException("A paid order has a successful payment: " + change.orderId()));
            queue(keyFor(change.orderId()), refundOf(payment.orderId, payment.amount, payment.currency, payment.channelTransactionId));
        });
    }

    /** Tries the refund within the cancelling request, right after its commit; the outbox retries it otherwise. */
    void refundNow(@Observes(during = TransactionPhase.AFTER_SUCCESS) OrderStatusChanges changes) {
        paidThenCancelled(changes).forEach(change -> deliverNow(keyFor(change.orderId())));
    }

    private static Stream<OrderStatusChanged> paidThenCancelled(OrderStatusChanges changes) {
        return changes.by(OrderEvent.CANCEL).filter(change -> change.from() == OrderStatus.PAID);
    }

    /**
     * Queues, in the caller's transaction, the refund of a charge that landed after its order was
     * cancelled: under the order's refund key, or under a key of its own when the order has another
     * charge. Returns the refund's key.
     */
    String queueForCancelledOrder(PaymentClaim claim, String reference) {
        String key = payments.hasOtherCharge(claim.orderId(), claim.id()) ? strayKeyFor(claim.key()) : keyFor(claim.orderId());
        queue(key, refundOf(claim, reference));
        return key;
    }

    /** Queues, in the caller's transaction, the refund of an attempt's charge that its order did not take (it was paid already). */
    void queueStray(PaymentClaim claim, String reference) {
        queue(strayKeyFor(claim.key()), refundOf(claim, reference));
    }

    /** Queues, in the caller's transaction, the refund of a provider's charge that nothing accounts for. */
    void queueStray(ProviderCharge charge) {
        queue(strayKeyFor(charge.key()), new RefundRequest(charge.orderId(), charge.amount(), charge.currency(), charge.reference()));
    }

    /**
     * Queues, in the caller's transaction, the refund of an attempt's charge that took another amount or
     * currency than asked: all it took goes back, under the attempt's own refund key. Returns the key.
     */
    String queueWrongAmount(PaymentClaim claim, ProviderCharge charge) {
        String key = strayKeyFor(claim.key());
        queue(key, new RefundRequest(claim.orderId(), charge.amount(), charge.currency(), charge.reference()));
        return key;
    }

    /** Tries a queued refund at once, after the transaction that queued it committed; the outbox retries it otherwise. */
    void deliverNow(String key) {
        outboxDelivery.deliverNow(key);
    }

    /** Records a refund in the caller's transaction; the outbox delivers it with retries. */
    private void queue(String key, RefundRequest refund) {
        outbox.enqueue(KIND, refund.orderId(), key, refund);
    }

    private static RefundRequest refundOf(UUID orderId, BigDecimal amount, String currency, String charge) {
        return new RefundRequest(orderId, Money.format(amount, currency), currency, charge);
    }

    private static RefundRequest refundOf(PaymentClaim claim, String charge) {
        return refundOf(claim.orderId(), claim.amount(), claim.currency(), charge);
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public void deliver(OutboxMessage message) {
        try {
            refund(message);
        } catch (RuntimeException e) {
            if (e instanceof DownstreamRefusedException refusal && refusal.status() != UNAUTHENTICATED) {
                throw new MessageRefusedException(refusal);
            }
            Duration owed = Duration.between(message.createdAt, Instant.now());
            if (owed.compareTo(overdueAfter) > 0) {
                LOG.warnf("Refund %s is overdue: owed for %s, attempt %d failed: %s; it is tried again", message.idempotencyKey,
                        owed.truncatedTo(ChronoUnit.MILLIS), message.attempts + 1, e.toString());
            }
            throw e;
        }
    }

    @Override
    public void refused(OutboxMessage message, String refusal) {
        refusedForGood.increment();
        BusinessEvent.REFUND_REFUSED.log(message.orderId, OrderTransitions.SYSTEM);
        LOG.warnf("Refund %s of order %s was refused for good (%s); it is not tried again until staff settle it: "
                + "GET /payments/refunds/refused", message.idempotencyKey, message.orderId, refusal);
    }

    private void refund(OutboxMessage message) {
        RefundRequest refund = read(message);
        String charge = chargeOf(refund).orElseThrow(() -> new IllegalStateException("No charge to refund for order " + message.orderId));
        gateway.refund(message.idempotencyKey, refund.of(charge));
        markRefunded(charge);
        BusinessEvent.REFUNDED.log(message.orderId, OrderTransitions.SYSTEM);
    }

    /** The charge a refund gives back: the one it names or, for one queued before refunds named their charge, the order's successful payment. */
    Optional<String> chargeOf(RefundRequest refund) {
        return refund.charge() != null ? Optional.of(refund.charge())
                : payments.charged(refund.orderId()).map(payment -> payment.channelTransactionId);
    }

    /** Its own transaction: delivery may run right after another one committed, still on its thread. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    void markRefunded(String charge) {
        payments.refunded(charge);
    }

    /** Refunds queued longer ago than the threshold and not made yet, counted at most once a second. */
    private double overdue() {
        Overdue counted = overdue;
        Instant now = Instant.now();
        if (counted == null || counted.countedAt().plus(COUNT_MAX_AGE).isBefore(now)) {
            counted = new Overdue(outboxBacklog.pendingWrittenBefore(kind(), now.minus(overdueAfter)), now);
            overdue = counted;
        }
        return counted.refunds();
    }

    RefundRequest read(OutboxMessage message) {
        try {
            return json.read(message.payload, RefundRequest.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Unreadable refund " + message.idempotencyKey, e);
        }
    }
}
