package io.orderflow.payment;

import java.time.Instant;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.quarkus.scheduler.Scheduled;

/**
 * Finds payments left PROCESSING past their lease (a crash between claim and outcome, or a
 * provider that stopped answering) and settles each by asking the provider with its key.
 */
@ApplicationScoped
public class PaymentRecovery {

    private static final Logger LOG = Logger.getLogger(PaymentRecovery.class);

    private final Payments payments;
    private final PaymentService service;

    public PaymentRecovery(Payments payments, PaymentService service) {
        this.payments = payments;
        this.service = service;
    }

    @Scheduled(every = "${orders.payments.recovery-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP, delayed = "5s")
    public void recover() {
        for (UUID orderId : payments.unresolvedBefore(Instant.now(), 50)) {
            try {
                service.resolve(orderId);
            } catch (RuntimeException e) {
                LOG.warnf("Payment of order %s is still unresolved: %s", orderId, e.toString());
            }
        }
    }
}
