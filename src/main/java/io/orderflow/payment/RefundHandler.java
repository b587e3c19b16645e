package io.orderflow.payment;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.outbox.OutboxHandler;
import io.orderflow.outbox.OutboxMessage;

/** Delivers queued refunds to the provider with the key {@code refund:{orderId}}, then marks the payment REFUNDED. */
@ApplicationScoped
public class RefundHandler implements OutboxHandler {

    private final PaymentGateway gateway;
    private final Payments payments;
    private final ObjectMapper json;

    public RefundHandler(PaymentGateway gateway, Payments payments, ObjectMapper json) {
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
        try {
            MoneyCall call = json.readValue(message.payload, MoneyCall.class);
            gateway.refund(message.idempotencyKey, call);
            markRefunded(message.orderId);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Unreadable refund " + message.idempotencyKey, e);
        }
    }

    /** Its own transaction: delivery may run right after another one committed, still on its thread. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    void markRefunded(UUID orderId) {
        payments.refunded(orderId);
    }
}
