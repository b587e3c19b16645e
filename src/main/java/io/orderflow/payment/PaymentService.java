package io.orderflow.payment;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.ProcessingException;

import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.orderflow.idempotency.IdempotencyRecords;
import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.order.OrderService;
import io.orderflow.order.OrderTransitions;
import io.orderflow.order.OrderView;
import io.orderflow.shared.downstream.DownstreamRefusedException;
import io.orderflow.shared.downstream.DownstreamUnavailableException;
import io.orderflow.shared.logging.BusinessEvent;
import io.orderflow.shared.metrics.Counters;
import io.orderflow.shared.money.Money;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.problem.ProblemMappers;
import io.orderflow.shared.security.Caller;
import io.quarkus.runtime.Startup;

/**
 * Paying charges the provider exactly once per order. The payment attempt is claimed first (a
 * concurrent pay finds the claim and never calls the provider), the provider is called with the
 * attempt's key however often it is retried, and the successful charge and created -> paid commit
 * together. An unknown outcome is settled only by a certain answer: the same call re-sent with the
 * same key, or {@link PaymentRecovery}'s lookup or void of the key. A charge that lands for an order
 * that was cancelled meanwhile is refunded through {@link Refunds}.
 */
@Startup
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
    private final Counters<PaymentOutcome> outcomes;
    private final OrderService orders;
    private final IdempotencyRecords keys;
    private final ObjectMapper json;

    PaymentService(OrderTransitions transitions, PaymentStore payments, PaymentGateway gateway, Refunds refunds, PaymentConfig config,
            MeterRegistry metrics, OrderService orders, IdempotencyRecords keys, ObjectMapper json) {
        this.orders = orders;
        this.keys = keys;
        this.json = json;
        this.transitions = transitions;
        this.payments = payments;
        this.gateway = gateway;
        this.refunds = refunds;
        this.config = config;
        this.outcomes = Counters.of(metrics, "orders.payments", "Attempts at a charge, by what they came to", Tags.empty(), "outcome",
                PaymentOutcome.class);
    }

    /** What a pay comes to: the order's transition, or the customer's authentication the provider waits for. */
    public sealed interface Paying {
    }

    /** The order after paying (or as it is, when it was paid before). */
    public record Paid(OrderTransitions.Outcome outcome) implements Paying {
    }

    /** The provider waits for the customer to authenticate (3-D Secure) at {@code nextAction}; the order is still created. */
    public record ActionRequired(OrderView order, ProviderCharge.NextAction nextAction) implements Paying {
    }

    /**
     * Pays an order with a payment method (null: the default one). An attempt whose outcome is still
     * unknown is re-sent as it was first sent, whatever method this request names. The order is read
     * again before each new attempt, so an order cancelled meanwhile is never charged.
     */
    public Paying pay(Caller caller, UUID orderId, String paymentMethod, String commandId) {
        String method = paymentMethod == null ? config.defaultMethod() : paymentMethod;
        if (!config.offeredMethods().contains(method)) {
            // Refused before the order is even looked at: whatever method a client names, only an offered one reaches the provider.
            throw new ProblemException(Problem.of(ProblemCode.PAYMENT_METHOD_NOT_OFFERED,
                    "This shop does not take " + method + "; it takes " + String.join(", ", config.offeredMethods()) + ". Nothing was charged."));
        }
        for (int looks = 1;; looks++) {
            Claiming claiming = claim(caller, orderId, method);
            if (claiming.order().status() != OrderStatus.CREATED) {
                // Paid before (a repeat) or past paying (409): the lifecycle answers, nothing is charged.
                return new Paid(transitions.apply(caller, orderId, OrderEvent.PAY, commandId));
            }
            if (claiming.claim().isPresent()) {
                return charge(caller, claiming.claim().get(), commandId);
            }
            Payment.Status latest = payments.latest(orderId).orElseThrow().status;
            if (latest == Payment.Status.PROCESSING || latest == Payment.Status.FAILURE && looks == MAX_LOOKS) {
                throw paymentInProgress();
            }
            if (latest != Payment.Status.FAILURE) {
                // Charged while this request looked: the order was paid (or cancelled) with that charge; the lifecycle answers.
                return new Paid(transitions.apply(caller, orderId, OrderEvent.PAY, commandId));
            }
            // The attempt another request held failed meanwhile (declined, refused, voided): this request makes its own.
        }
    }

    /**
     * The order as the caller may pay it and, while it is created, its payment claimed. No transaction around both:
     * the order's read takes no lock, so one would hold nothing; the claim decides by itself, and an order cancelled
     * between the read and the charge is met by the transition after it, which gives the charge back.
     */
    Claiming claim(Caller caller, UUID orderId, String method) {
        OrderTransitions.Snapshot order = transitions.check(caller, orderId, OrderEvent.PAY);
        return new Claiming(order, order.status() == OrderStatus.CREATED
                ? payments.claimToCharge(orderId, order.totalAmount(), order.currency(), method)
                : Optional.empty());
    }

    /** What claiming found: the order, and the claim unless another request holds the attempt or it is paid. */
    record Claiming(OrderTransitions.Snapshot order, Optional<PaymentClaim> claim) {
    }

    /** Sends the claimed attempt to the provider and acts on its answer, read strictly. */
    private Paying charge(Caller caller, PaymentClaim claim, String commandId) {
        ProviderCharge answer;
        try {
            answer = gateway.charge(claim.key(), new ChargeRequest(claim.orderId(), Money.format(claim.amount(), claim.currency()),
                    claim.currency(), claim.paymentMethod(), Map.of(ChargeRequest.DEPLOYMENT, config.deploymentId()),
                    config.returnUrl().replace("{orderId}", claim.orderId().toString())));
        } catch (PaymentDeclinedException e) {
            throw declined(caller, claim, "declined");
        } catch (DownstreamRefusedException e) {
            payments.failed(claim, "refused with " + e.status());
            count(PaymentOutcome.REFUSED);
            throw new ProblemException(Problem.of(ProblemCode.PAYMENT_PROVIDER_ERROR, "The payment provider refused the request; nothing was charged."));
        } catch (DownstreamUnavailableException | ProcessingException | FaultToleranceException e) {
            throw unknown(claim, e.toString());
        }
        ProviderCharge.Reading reading = answer == null ? ProviderCharge.Reading.UNKNOWN : answer.readFor(claim.amount(), claim.currency());
        return switch (reading) {
            case SUCCEEDED -> {
                count(PaymentOutcome.CHARGED);
                yield completeOrRelease(caller, claim, answer.reference(), commandId);
            }
            case NOT_CHARGED -> throw declined(caller, claim, answer.status());
            case WRONG_AMOUNT -> throw wrongAmount(claim, answer);
            case REQUIRES_ACTION -> actionRequired(caller, claim, answer.nextAction());
            case UNKNOWN -> throw unknown(claim, answer == null ? "an empty answer" : "status " + answer.status());
        };
    }

    private Paid completeOrRelease(Caller caller, PaymentClaim claim, String reference, String commandId) {
        try {
            return new Paid(complete(caller, claim, reference, commandId));
        } catch (ClaimLostException e) {
            throw paymentInProgress();
        } catch (ProblemException answered) {
            throw answered;
        } catch (RuntimeException notRecorded) {
            // Charged, but the database failed before it was recorded: free the attempt, so that a retry
            // re-sends it under its key and records the provider's first answer (recovery does otherwise).
            releaseAfterFailure(claim);
            throw notRecorded;
        }
    }

    /**
     * A certain "not charged": the attempt fails and the 402 is kept as the Idempotency-Key's answer in
     * the same commit, so that a retry with the key replays it and never starts another attempt. Should
     * that commit fail, the attempt stays open and a retry re-sends it under its key.
     */
    private ProblemException declined(Caller caller, PaymentClaim claim, String reason) {
        ProblemException answer = new ProblemException(Problem.of(ProblemCode.PAYMENT_DECLINED,
                "The payment provider declined the charge; the order is still open and may be paid again."));
        boolean failedHere;
        try {
            failedHere = failWithAnswer(claim, reason, answer);
        } catch (RuntimeException notRecorded) {
            releaseAfterFailure(claim);
            throw notRecorded;
        }
        if (!failedHere) {
            return paymentInProgress();
        }
        count(PaymentOutcome.DECLINED);
        BusinessEvent.DECLINED.log(claim.orderId(), caller.name());
        return answer;
    }

    @Transactional
    boolean failWithAnswer(PaymentClaim claim, String reason, ProblemException answer) {
        if (!payments.failed(claim, reason)) {
            return false;
        }
        keys.keepWithEffect(ProblemMappers.builder(answer.problem(), json).build());
        return true;
    }

    /** The provider charged another amount or currency than asked: see {@link #refundWrongAmount}. */
    private ProblemException wrongAmount(PaymentClaim claim, ProviderCharge answer) {
        return !refundWrongAmount(claim, answer) ? paymentInProgress() : new ProblemException(Problem.of(ProblemCode.PAYMENT_PROVIDER_ERROR,
                "The payment provider charged another amount than the order's; that charge is being given back, and the order is still open."));
    }

    /**
     * A charge of another amount or currency than asked goes back in full, and its attempt fails (nothing
     * of it is kept), so the order may be paid again. False when another holder took the attempt over.
     */
    boolean refundWrongAmount(PaymentClaim claim, ProviderCharge answer) {
        Optional<String> refund = failAndRefund(claim, answer);
        refund.ifPresent(refunds::deliverNow);
        if (refund.isPresent()) {
            count(PaymentOutcome.WRONG_AMOUNT);
            LOG.warnf("The provider charged %s %s under %s for an order of %s %s; the charge is being refunded", answer.amount(),
                    answer.currency(), claim.key(), Money.format(claim.amount(), claim.currency()), claim.currency());
        }
        return refund.isPresent();
    }

    /** Fails the attempt and queues the refund of what it took, in one transaction; empty when the claim was lost. */
    @Transactional
    Optional<String> failAndRefund(PaymentClaim claim, ProviderCharge answer) {
        if (!payments.failed(claim, "charged " + answer.amount() + " " + answer.currency())) {
            return Optional.empty();
        }
        return Optional.of(refunds.queueWrongAmount(claim, answer));
    }

    /** No certain answer: the attempt stays open under its key; a retry re-sends it, recovery settles it otherwise. */
    private ProblemException unknown(PaymentClaim claim, String why) {
        payments.release(claim, Instant.now());
        count(PaymentOutcome.UNAVAILABLE);
        LOG.warnf("Payment %s has no certain outcome yet: %s", claim.key(), why);
        return new ProblemException(Problem.of(ProblemCode.PAYMENT_PROVIDER_UNAVAILABLE,
                "The payment provider did not confirm the charge; the order is still open. Retry the payment with the same Idempotency-Key."),
                Duration.ofSeconds(1));
    }

    /**
     * The customer must authenticate first: the attempt stays open under its key, to be settled when
     * the provider confirms (its event, a pay re-sending the key, or recovery's lookup); past the
     * processing horizon an abandoned authentication is voided.
     */
    private ActionRequired actionRequired(Caller caller, PaymentClaim claim, ProviderCharge.NextAction next) {
        payments.release(claim, Instant.now());
        count(PaymentOutcome.REQUIRES_ACTION);
        return new ActionRequired(orders.get(caller, claim.orderId().toString()), next);
    }

    /**
     * Settles a claimed attempt by what the provider says of its key (empty: it never saw it), by the
     * pay path's rules: charged for the right amount means paid (or refunded if the order no longer
     * wants it), charged otherwise means refunded, certainly not charged means failed, so that a later
     * pay starts a new attempt; anything else leaves it open to be asked about again. {@code actor}
     * names who learned it, recorded as the history's command id.
     */
    void settle(PaymentClaim claim, String customer, Optional<ProviderCharge> answer, String actor) {
        ProviderCharge.Reading reading = answer.map(charge -> charge.readFor(claim.amount(), claim.currency()))
                .orElse(ProviderCharge.Reading.UNKNOWN);
        switch (reading) {
            case SUCCEEDED -> {
                try {
                    complete(new Caller(customer, false), claim, answer.get().reference(), actor);
                } catch (ProblemException cancelledMeanwhile) {
                    // the charge is recorded and its refund queued
                } catch (ClaimLostException e) {
                    return;
                }
                count(PaymentOutcome.RECOVERED_CHARGED);
            }
            case WRONG_AMOUNT -> refundWrongAmount(claim, answer.get());
            case NOT_CHARGED -> {
                payments.failed(claim, answer.get().status());
                count(PaymentOutcome.RECOVERED_NOT_CHARGED);
            }
            // Still processing or authenticating, or never seen yet: asked again later, voided past the horizon.
            case REQUIRES_ACTION, UNKNOWN -> {
                payments.release(claim, Instant.now());
                count(PaymentOutcome.UNKNOWN);
            }
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
    void count(PaymentOutcome outcome) {
        outcomes.increment(outcome);
    }

    /** The attempt was taken over by another holder while this one talked to the provider; that one settles it. */
    static final class ClaimLostException extends RuntimeException {
        ClaimLostException() {
            super("The payment's claim was taken over", null, false, false);
        }
    }
}
