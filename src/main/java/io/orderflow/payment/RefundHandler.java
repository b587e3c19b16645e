package io.orderflow.payment;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.outbox.OutboxBacklog;
import io.orderflow.outbox.OutboxHandler;
import io.orderflow.outbox.OutboxMessage;
import io.orderflow.shared.StoredJson;

/**
 * Delivers queued refunds to the provider with their key ({@code refund:{orderId}}, or
 * {@code refund:{chargeKey}} for a charge no order asked for), then marks the payment REFUNDED.
 * A refund is never given up: the outbox retries it for as long as it takes. One owed for longer
 * than {@code orders.payments.refund-overdue-after} is counted in {@code orders_refunds_overdue} and
 * each of its failed attempts is logged as a warning.
 */
@ApplicationScoped
public class RefundHandler implements OutboxHandler {

    private static final Logger LOG = Logger.getLogger(RefundHandler.class);
    /** The gauge counts at most this often, so a scrape costs at most one query. */
    private static final Duration COUNT_MAX_AGE = Duration.ofSeconds(1);

    /** Overdue refunds, as counted at one moment. */
    private record Overdue(long refunds, Instant countedAt) {
    }

    private final PaymentGateway gateway;
    private final PaymentStore payments;
    private final OutboxBacklog outbox;
    private final Duration overdueAfter;
    private final StoredJson json;
    private final MeterRegistry metrics;
    private final Gauge overdueGauge;
    private volatile Overdue overdue;

    public RefundHandler(PaymentGateway gateway, PaymentStore payments, OutboxBacklog outbox, PaymentConfig config, StoredJson json,
            MeterRegistry metrics) {
        this.gateway = gateway;
        this.payments = payments;
        this.outbox = outbox;
        this.overdueAfter = config.refundOverdueAfter();
        this.json = json;
        this.metrics = metrics;
        this.overdueGauge = Gauge.builder("orders.refunds.overdue", this, RefundHandler::overdue)
                .description("Refunds owed to customers for longer than orders.payments.refund-overdue-after and not made yet")
                .strongReference(true).register(metrics);
    }

    /** The registry may outlive this bean (tests restart the app in one JVM): its gauge must not call it then. */
    @PreDestroy
    void removeGauge() {
        metrics.remove(overdueGauge);
    }

    @Override
    public String kind() {
        return PaymentService.REFUND;
    }

    @Override
    public void deliver(OutboxMessage message) {
        try {
            refund(message);
        } catch (RuntimeException e) {
            Duration owed = Duration.between(message.createdAt, Instant.now());
            if (owed.compareTo(overdueAfter) > 0) {
                LOG.warnf("Refund %s is overdue: owed for %s, attempt %d failed: %s; it is tried again", message.idempotencyKey,
                        owed.truncatedTo(ChronoUnit.MILLIS), message.attempts + 1, e.toString());
            }
            throw e;
        }
    }

    private void refund(OutboxMessage message) {
        RefundRequest refund = read(message);
        if (refund.charge() == null) {
            // Queued before refunds named their charge: it is the order's successful payment.
            refund = refund.of(payments.charged(refund.orderId()).map(payment -> payment.channelTransactionId)
                    .orElseThrow(() -> new IllegalStateException("No charge to refund for order " + message.orderId)));
        }
        gateway.refund(message.idempotencyKey, refund);
        markRefunded(refund.charge());
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
            counted = new Overdue(outbox.pendingWrittenBefore(kind(), now.minus(overdueAfter)), now);
            overdue = counted;
        }
        return counted.refunds();
    }

    private RefundRequest read(OutboxMessage message) {
        try {
            return json.read(message.payload, RefundRequest.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Unreadable refund " + message.idempotencyKey, e);
        }
    }
}
