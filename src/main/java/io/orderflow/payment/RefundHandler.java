package io.orderflow.payment;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.outbox.OutboxHandler;
import io.orderflow.outbox.OutboxMessage;

/**
 * Delivers queued refunds to the provider with their key ({@code refund:{orderId}}, or
 * {@code refund:{chargeKey}} for a charge no order asked for), then marks the payment REFUNDED.
 */
@ApplicationScoped
public class RefundHandler implements OutboxHandler {

    private final PaymentGateway gateway;
    private final PaymentStore payments;
    private final ObjectMapper json;

    public RefundHandler(PaymentGateway gateway, PaymentStore payments, ObjectMapper json) {
        this.gateway = gateway;
        this.payments = payments;
        this.json = json;
    }

    @Override
    public String kind() {
        return PaymentService.REFUND;
    }

    @Override
    public void deliver(OutboxMessage message) {
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

    private RefundRequest read(OutboxMessage message) {
        try {
            return json.readValue(message.payload, RefundRequest.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Unreadable refund " + message.idempotencyKey, e);
        }
    }
}
