package io.orderflow.payment;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.ProcessingException;

import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.order.OrderTransitions;
import io.orderflow.shared.downstream.DownstreamRefusedException;
import io.orderflow.shared.downstream.DownstreamUnavailableException;
import io.orderflow.shared.money.Money;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;

/**
 * Paying charges the provider exactly once per order. The payment attempt is claimed first (a
 * concurrent pay finds the claim and never calls the provider), the provider is called with the
 * attempt's key however often it is retried, and the successful charge and created -> paid commit
 * together. An unknown outcome is settled only by a certain answer: the same call re-sent with the
 * same key, or {@link PaymentRecovery}'s lookup or void of the key. A charge that lands for an order
 * that was cancelled meanwhile is refunded through {@link Refunds}.
 */
@ApplicationScoped
public class PaymentService {

    /** How often a pay looks for an attempt of its own while others keep failing theirs, before it answers 409. */
    private static final int MAX_LOOKS = 3;
    private static final Logger LOG = Logger.getLogger(PaymentService.class);

    private final OrderTransitions transitions;
    private final PaymentStore payments;
    private final PaymentGateway gateway;
    private final Refunds refunds;
    private final PaymentConfig config;
    private final MeterRegistry metrics;

    PaymentService(OrderTransitions transitions, PaymentStore payments, PaymentGateway gateway, Refunds refunds, PaymentConfig config,
            MeterRegistry metrics) {
        this.transitions = transitions;
        this.payments = payments;
        this.gateway = gateway;
        this.refunds = refunds;
        this.config = config;
        this.metrics = metrics;
    }

    /**
     * Pays an order with a payment method (null: the default one). An attempt whose outcome is still
     * unknown is re-sent as it was first sent, whatever method this request names.
     */
    public OrderTransitions.Outcome pay(Caller caller, UUID orderId, String paymentMethod, String commandId) {
        String method = paymentMethod == null ? config.defaultMethod() : paymentMethod;
        Claiming first = claim(caller, orderId, method);
        if (first.order().status() != OrderStatus.CREATED) {
            // Paid before (a repeat) or past paying (409): the lifecycle answers, nothing is charged.
            return transitions.apply(caller, orderId, OrderEvent.PAY, commandId);
        }
        OrderTransitions.Snapshot order = first.order();
        Optional<PaymentClaim> claim = first.claim();
        for (int looks = 1; claim.isEmpty(); looks++) {
            Payment.Status latest = payments.latest(orderId).orElseThrow().status;
            if (latest == Payment.Status.PROCESSING || latest == Payment.Status.FAILURE && looks == MAX_LOOKS) {
                throw paymentInProgress();
            }
            if (latest != Payment.Status.FAILURE) {
                // Charged while this request looked: the order was paid (or cancelled) with that charge; the lifecycle answers.
                return transitions.apply(caller, orderId, OrderEvent.PAY, commandId);
            }
            // The attempt another request held failed meanwhile (declined, refused, voided): this request makes its own.
            claim = payments.claimToCharge(orderId, order.totalAmount(), order.currency(), method);
        }
        ProviderCharge charge = charge(claim.get());
        try {
            return complete(caller, claim.get(), charge.reference(), commandId);
        } catch (ClaimLostException e) {
            throw paymentInProgress();
        } catch (ProblemException answered) {
            throw answered;
        } catch (RuntimeException notRecorded) {
            // Charged, but the database failed before it was recorded: free the attempt, so that a retry
            // re-sends it under its key and records the provider's first answer (recovery does otherwise).
            releaseAfterFailure(claim.get());
            throw notRecorded;
        }
    }

    /** The order as the caller may pay it and, while it is created, its payment claimed: one transaction. */
    @Transactional
    Claiming claim(Caller caller, UUID orderId, String method) {
        OrderTransitions.Snapshot order = transitions.check(caller, orderId, OrderEvent.PAY);
        return new Claiming(order, order.status() == OrderStatus.CREATED
                ? payments.claimToCharge(orderId, order.totalAmount(), order.currency(), method)
                : Optional.empty());
    }

    /** What claiming found: the order, and the claim unless another request holds the attempt or it is paid. */
    record Claiming(OrderTransitions.Snapshot order, Optional<PaymentClaim> claim) {
    }

    private ProviderCharge charge(PaymentClaim claim) {
        ChargeRequest call = new ChargeRequest(claim.orderId(), Money.format(claim.amount(), claim.currency()), claim.currency(),
                claim.paymentMethod());
        try {
            ProviderCharge charge = gateway.charge(claim.key(), call);
            count("charged");
            return charge;
        } catch (PaymentDeclinedException e) {
            payments.failed(claim, "declined");
            count("declined");
            throw new ProblemException(Problem.of(ProblemCode.PAYMENT_DECLINED, "The payment provider declined the charge; the order is still open and may be paid again."));
        } catch (DownstreamRefusedException e) {
            payments.failed(claim, "refused with " + e.status());
            count("refused");
            throw new ProblemException(Problem.of(ProblemCode.PAYMENT_PROVIDER_ERROR, "The payment provider refused the request; nothing was charged."));
        } catch (DownstreamUnavailableException | ProcessingException | FaultToleranceException e) {
            // The charge may still land: recovery asks the provider until it knows.
            payments.release(claim, Instant.now());
            count("unavailable");
            LOG.warnf("Payment provider unavailable for %s after retries: %s", claim.key(), e.toString());
            throw new ProblemException(Problem.of(ProblemCode.PAYMENT_PROVIDER_UNAVAILABLE, "The payment provider did not answer; the order is still open. Retry the payment with the same Idempotency-Key."),
                    Duration.ofSeconds(1));
        }
    }

    /** Records a certain charge of the attempt and pays its order; a charge the order no longer wants goes back. */
    OrderTransitions.Outcome complete(Caller caller, PaymentClaim claim, String reference, String commandId) {
        try {
            return paid(caller, claim, reference, commandId);
        } catch (ProblemException notPayable) {
            chargedButNotPaid(claim, reference).ifPresent(refunds::deliverNow);
            throw notPayable;
        }
    }

    /**
     * The charge and created -> paid commit together; the transition's guard sees the charge recorded
     * first. An order that was paid already, by another charge, keeps that one: this charge goes back.
     */
    @Transactional
    OrderTransitions.Outcome paid(Caller caller, PaymentClaim claim, String reference, String commandId) {
        if (!payments.succeeded(claim, reference)) {
            throw new ClaimLostException();
        }
        OrderTransitions.Outcome outcome = transitions.apply(caller, claim.orderId(), OrderEvent.PAY, commandId);
        if (outcome.replayed()) {
            refunds.queueStray(claim, reference);
        }
        return outcome;
    }

    /**
     * The order was cancelled while it was charged: keep the charge on record and give it back.
     * Returns the refund's key, or empty when another holder took the attempt over.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Optional<String> chargedButNotPaid(PaymentClaim claim, String reference) {
        if (!payments.succeeded(claim, reference)) {
            return Optional.empty();
        }
        String key = refunds.queueForCancelledOrder(claim, reference);
        LOG.infof("Order %s was cancelled while it was charged; the charge is being refunded", claim.orderId());
        return Optional.of(key);
    }

    private void releaseAfterFailure(PaymentClaim claim) {
        try {
            payments.release(claim, Instant.now());
        } catch (RuntimeException stillFailing) {
            LOG.warnf("Payment %s stays claimed until its lease runs out: %s", claim.key(), stillFailing.toString());
        }
    }

    private static ProblemException paymentInProgress() {
        return new ProblemException(Problem.of(ProblemCode.PAYMENT_IN_PROGRESS, "Another request is paying this order; retry shortly to see its outcome."), Duration.ofSeconds(1));
    }

    /** Counts an attempt's outcome in orders_payments_total{outcome}, whether a pay or recovery learned it. */
    void count(String outcome) {
        metrics.counter("orders.payments", "outcome", outcome).increment();
    }

    /** The attempt was taken over by another holder while this one talked to the provider; that one settles it. */
    static final class ClaimLostException extends RuntimeException {
        ClaimLostException() {
            super("The payment's claim was taken over", null, false, false);
        }
    }
}
