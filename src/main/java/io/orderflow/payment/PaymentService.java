package io.orderflow.payment;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.ProcessingException;

import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.order.Money;
import io.orderflow.order.OrderStatusChanged;
import io.orderflow.order.OrderTransitions;
import io.orderflow.outbox.Outbox;
import io.orderflow.shared.downstream.DownstreamRefusedException;
import io.orderflow.shared.downstream.DownstreamUnavailableException;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;

/**
 * Paying charges the provider exactly once per order: the payment row is claimed first (a
 * concurrent pay finds the claim and never calls the provider), the provider is called with the
 * key {@code payment:{orderId}} however often it is retried, and the successful charge and
 * created -> paid commit together. A charge that lands after the order was cancelled is refunded.
 */
@ApplicationScoped
public class PaymentService {

    static final String REFUND = "refund";
    private static final Logger LOG = Logger.getLogger(PaymentService.class);

    private final OrderTransitions transitions;
    private final Payments payments;
    private final PaymentGateway gateway;
    private final Outbox outbox;
    private final MeterRegistry metrics;

    public PaymentService(OrderTransitions transitions, Payments payments, PaymentGateway gateway, Outbox outbox, MeterRegistry metrics) {
        this.transitions = transitions;
        this.payments = payments;
        this.gateway = gateway;
        this.outbox = outbox;
        this.metrics = metrics;
    }

    public OrderTransitions.Outcome pay(Caller caller, UUID orderId, String commandId) {
        OrderTransitions.Snapshot order = transitions.check(caller, orderId, OrderEvent.PAY);
        if (order.status() != OrderStatus.CREATED) {
            // Paid before (a repeat) or past paying (409): the lifecycle answers, nothing is charged.
            return transitions.apply(caller, orderId, OrderEvent.PAY, commandId);
        }
        Optional<Payment> claim = payments.claim(orderId, order.totalAmount(), order.currency());
        if (claim.isEmpty()) {
            if (payments.find(orderId).orElseThrow().status == Payment.Status.PROCESSING) {
                throw new ProblemException(Problem.of(409, "payment-in-progress", "Payment in progress",
                        "Another request is paying this order; retry shortly to see its outcome."), Duration.ofSeconds(1));
            }
            // It settled while this request looked: the lifecycle answers.
            return transitions.apply(caller, orderId, OrderEvent.PAY, commandId);
        }
        ProviderReceipt receipt = charge(claim.get());
        return complete(caller, orderId, receipt.reference(), commandId);
    }

    /**
     * Settles a payment whose claimant died or lost the provider, by asking the provider with the
     * same key: charged means paid (or refunded if the order was cancelled meanwhile), not charged
     * means failed, so that a later pay starts again. Never charges.
     */
    public void resolve(UUID orderId) {
        Optional<Payment> stuck = payments.find(orderId).filter(payment -> payment.status == Payment.Status.PROCESSING);
        if (stuck.isEmpty() || payments.claim(orderId, stuck.get().amount, stuck.get().currency).isEmpty()) {
            return;
        }
        Optional<ProviderReceipt> charge;
        try {
            charge = gateway.findCharge(Payment.keyFor(orderId));
        } catch (RuntimeException e) {
            payments.unresolved(orderId);
            throw e;
        }
        if (charge.isEmpty()) {
            payments.failed(orderId, "not charged");
            metrics.counter("orders.payments", "outcome", "recovered-not-charged").increment();
            return;
        }
        Caller owner = new Caller(transitions.ownerOf(orderId), false);
        try {
            complete(owner, orderId, charge.get().reference(), "recovery");
        } catch (ProblemException cancelledMeanwhile) {
            // the charge is recorded and its refund queued
        }
        metrics.counter("orders.payments", "outcome", "recovered-charged").increment();
    }

    /** A paid order that is cancelled gets its money back, exactly once, through the outbox. */
    void refundOnCancel(@Observes(during = TransactionPhase.IN_PROGRESS) OrderStatusChanged change) {
        if (change.event() == OrderEvent.CANCEL && change.from() == OrderStatus.PAID) {
            queueRefund(change.orderId(), change.totalAmount(), change.currency());
        }
    }

    /** Tries the refund within the cancelling request, right after its commit; the outbox retries it otherwise. */
    void refundNow(@Observes(during = TransactionPhase.AFTER_SUCCESS) OrderStatusChanged change) {
        if (change.event() == OrderEvent.CANCEL && change.from() == OrderStatus.PAID) {
            outbox.deliverNow(Payment.refundKeyFor(change.orderId()));
        }
    }

    private ProviderReceipt charge(Payment claim) {
        MoneyCall call = new MoneyCall(claim.orderId, Money.format(claim.amount, claim.currency), claim.currency);
        try {
            ProviderReceipt receipt = gateway.charge(claim.idempotencyKey, call);
            metrics.counter("orders.payments", "outcome", "charged").increment();
            return receipt;
        } catch (PaymentDeclinedException e) {
            payments.failed(claim.orderId, "declined");
            metrics.counter("orders.payments", "outcome", "declined").increment();
            throw new ProblemException(Problem.of(402, "payment-declined", "Payment declined",
                    "The payment provider declined the charge; the order is still open and may be paid again."));
        } catch (DownstreamRefusedException e) {
            payments.failed(claim.orderId, "refused with " + e.status());
            metrics.counter("orders.payments", "outcome", "refused").increment();
            throw new ProblemException(Problem.of(502, "payment-provider-error", "Payment provider error",
                    "The payment provider refused the request; nothing was charged."));
        } catch (DownstreamUnavailableException | ProcessingException | FaultToleranceException e) {
            payments.unresolved(claim.orderId);
            metrics.counter("orders.payments", "outcome", "unavailable").increment();
            LOG.warnf("Payment provider unavailable for order %s after retries: %s", claim.orderId, e.toString());
            throw new ProblemException(Problem.of(502, "payment-provider-unavailable", "Payment provider unavailable",
                    "The payment provider did not answer; the order is still open. Retry the payment with the same Idempotency-Key."),
                    Duration.ofSeconds(1));
        }
    }

    private OrderTransitions.Outcome complete(Caller caller, UUID orderId, String reference, String commandId) {
        try {
            return paid(caller, orderId, reference, commandId);
        } catch (ProblemException conflict) {
            chargedAfterCancel(orderId, reference);
            outbox.deliverNow(Payment.refundKeyFor(orderId));
            throw conflict;
        }
    }

    /** The charge and created -> paid commit together. */
    @Transactional
    OrderTransitions.Outcome paid(Caller caller, UUID orderId, String reference, String commandId) {
        OrderTransitions.Outcome outcome = transitions.apply(caller, orderId, OrderEvent.PAY, commandId);
        payments.succeeded(orderId, reference);
        return outcome;
    }

    /** The order was cancelled while the provider charged it: keep the charge on record and give it back. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    void chargedAfterCancel(UUID orderId, String reference) {
        payments.succeeded(orderId, reference);
        Payment payment = payments.find(orderId).orElseThrow();
        queueRefund(orderId, payment.amount, payment.currency);
        LOG.infof("Order %s was cancelled while it was charged; the charge is being refunded", orderId);
    }

    private void queueRefund(UUID orderId, BigDecimal amount, String currency) {
        outbox.enqueue(REFUND, orderId, Payment.refundKeyFor(orderId),
                Map.of("orderId", orderId.toString(), "amount", Money.format(amount, currency), "currency", currency));
    }
}
