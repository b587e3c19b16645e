package io.orderflow.payment;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.quarkus.scheduler.Scheduled;

/**
 * Settles payment attempts whose outcome is unknown (a request that gave up on the provider or
 * died) by asking the provider, on every instance; claims keep two instances off one attempt.
 */
@ApplicationScoped
public class PaymentRecovery {

    private static final Logger LOG = Logger.getLogger(PaymentRecovery.class);
    private static final int BATCH = 50;

    private final PaymentStore payments;
    private final PaymentService service;

    public PaymentRecovery(PaymentStore payments, PaymentService service) {
        this.payments = payments;
        this.service = service;
    }

    @Scheduled(every = "${orders.payments.recovery-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP, delayed = "5s")
    public void recover() {
        for (long paymentId : payments.dueForCheck(Instant.now(), BATCH)) {
            try {
                service.settle(paymentId);
            } catch (RuntimeException e) {
                LOG.warnf("Payment %d is still unsettled: %s", paymentId, e.toString());
            }
        }
    }
}
