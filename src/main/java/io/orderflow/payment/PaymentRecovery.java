package io.orderflow.payment;

import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.order.OrderTransitions;
import io.orderflow.shared.StopsWithTheApp;
import io.quarkus.scheduler.Scheduled;

/**
 * Settles payment attempts whose outcome is unknown (a request that gave up on the provider or
 * died) by asking the provider, on every instance; claims keep two instances off one attempt.
 */
@ApplicationScoped
class PaymentRecovery {

    private static final String RECOVERY = "recovery";
    private static final Logger LOG = Logger.getLogger(PaymentRecovery.class);
    private static final int BATCH = 50;

    private final OrderTransitions transitions;
    private final PaymentStore payments;
    private final PaymentGateway gateway;
    private final PaymentService service;
    private final PaymentConfig config;

    PaymentRecovery(OrderTransitions transitions, PaymentStore payments, PaymentGateway gateway, PaymentService service,
            PaymentConfig config) {
        this.transitions = transitions;
        this.payments = payments;
        this.gateway = gateway;
        this.service = service;
        this.config = config;
    }

    @StopsWithTheApp
    @Scheduled(every = "${orders.payments.recovery-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP, delayed = "5s")
    public void recover() {
        for (long paymentId : payments.dueForCheck(Instant.now(), BATCH)) {
            try {
                settle(paymentId);
            } catch (RuntimeException e) {
                LOG.warnf("Payment %d is still unsettled: %s", paymentId, e.toString());
            }
        }
    }

    /**
     * Settles an attempt whose outcome is unknown (its request gave up on the provider, or died), by
     * a certain answer of the provider and never by charging: while the order still awaits payment and
     * the provider may still be executing the charge, its lookup; once the order no longer wants the
     * charge, or past the processing horizon, a void of the key. Charged means paid (or refunded if the
     * order was cancelled meanwhile); voided or declined means failed, so that a later pay starts a new
     * attempt; no answer yet means ask again at the next run.
     */
    void settle(long paymentId) {
        Optional<PaymentClaim> taken = payments.claimToCheck(paymentId);
        if (taken.isEmpty()) {
            return;
        }
        PaymentClaim claim = taken.get();
        OrderTransitions.Snapshot order = transitions.snapshot(claim.orderId());
        boolean mayStillLand = order.status() == OrderStatus.CREATED
                && Instant.now().isBefore(claim.sentAt().plus(config.processingHorizon()));
        Optional<ProviderCharge> answer;
        try {
            answer = mayStillLand ? gateway.findCharge(claim.key()) : Optional.of(gateway.voidCharge(claim.key(), claim.orderId()));
        } catch (RuntimeException noAnswer) {
            payments.release(claim, Instant.now());
            service.count(PaymentOutcome.UNKNOWN);
            LOG.infof("Payment %s is still unknown: %s", claim.key(), noAnswer.toString());
            return;
        }
        service.settle(claim, order.customer(), answer, RECOVERY);
    }
}
