package io.orderflow.payment;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.ProcessingException;

import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.order.OrderTransitions;
import io.orderflow.payment.ReconciliationReport.Mismatch;
import io.orderflow.shared.StopsWithTheApp;
import io.orderflow.shared.StoredJson;
import io.orderflow.shared.downstream.DownstreamRefusedException;
import io.orderflow.shared.downstream.DownstreamUnavailableException;
import io.orderflow.shared.metrics.Counters;
import io.orderflow.shared.money.Money;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;

/**
 * Compares the provider's charges of a time window with the payments table. Every charge must be the
 * one successful payment of an order that is paid, shipped or delivered, or be refunded (or on its
 * way back). A charge that matches nothing is refunded through the outbox, under a key of its own,
 * and counted in {@code orders_reconciliation_mismatches_total{kind}}. Safe on several instances at
 * once: refunds are keyed, and a queued refund is seen by the next look.
 */
@Startup
@ApplicationScoped
public class PaymentReconciliation {

    private static final Logger LOG = Logger.getLogger(PaymentReconciliation.class);
    private static final int PAGE = 100;
    private static final Set<OrderStatus> PAID = EnumSet.of(OrderStatus.PAID, OrderStatus.SHIPPED, OrderStatus.DELIVERED);
    private static final String SAVE = "INSERT INTO reconciliation_reports (started_at, finished_at, report) VALUES (:started, :finished, :report)";
    private static final String RECENT = "SELECT report FROM reconciliation_reports ORDER BY id DESC LIMIT :limit";

    /** Keys of the charges this deployment makes: {@code payment:{orderId}:{attempt}}. */
    private static final Pattern OUR_KEYS = Pattern.compile("payment:[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}:[1-9][0-9]*");

    /** What a charge turned out to be. */
    enum Verdict {
        MATCHED, REFUNDED, REFUND_PENDING, UNSETTLED, NOT_CHARGED, MISMATCH
    }

    private final PaymentGateway gateway;
    private final PaymentStore payments;
    private final Refunds refunds;
    private final OrderTransitions orders;
    private final PaymentConfig config;
    private final EntityManager db;
    private final StoredJson json;
    private final Counters<MismatchKind> mismatchesByKind;

    PaymentReconciliation(PaymentGateway gateway, PaymentStore payments, Refunds refunds, OrderTransitions orders, PaymentConfig config,
            EntityManager db, StoredJson json, MeterRegistry metrics) {
        this.gateway = gateway;
        this.payments = payments;
        this.refunds = refunds;
        this.orders = orders;
        this.config = config;
        this.db = db;
        this.json = json;
        this.mismatchesByKind = Counters.of(metrics, "orders.reconciliation.mismatches", "Charges that nothing accounts for, by kind", Tags.empty(),
                "kind", MismatchKind.class);
    }

    @StopsWithTheApp
    @Scheduled(every = "${orders.payments.reconciliation.interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            delayed = "1m")
    void scheduled() {
        ReconciliationReport report = run();
        if (!report.mismatches().isEmpty()) {
            LOG.warnf("Reconciliation found %d charges that no paid order accounts for; see its report", report.mismatches().size());
        }
    }

    /** Reconciles the configured window up to now, keeps the report and returns it. */
    public ReconciliationReport run() {
        Instant started = Instant.now();
        Instant since = started.minus(config.reconciliation().window());
        int charges = 0;
        int[] verdicts = new int[Verdict.values().length];
        List<Mismatch> mismatches = new ArrayList<>();
        String after = null;
        do {
            ChargePage page = charges(since, started, after);
            for (ProviderCharge charge : page.items()) {
                charges++;
                verdicts[examine(charge, mismatches).ordinal()]++;
            }
            after = page.next();
        } while (after != null);
        ReconciliationReport report = new ReconciliationReport(started, Instant.now(), since, started, charges,
                verdicts[Verdict.MATCHED.ordinal()], verdicts[Verdict.REFUNDED.ordinal()], verdicts[Verdict.REFUND_PENDING.ordinal()],
                verdicts[Verdict.UNSETTLED.ordinal()], verdicts[Verdict.NOT_CHARGED.ordinal()], List.copyOf(mismatches));
        save(report);
        return report;
    }

    private ChargePage charges(Instant since, Instant until, String after) {
        try {
            return gateway.charges(since, until, after, PAGE);
        } catch (DownstreamUnavailableException | DownstreamRefusedException | ProcessingException | FaultToleranceException e) {
            LOG.warnf("Reconciliation could not list the provider's charges: %s", e.toString());
            throw new ProblemException(Problem.of(ProblemCode.PAYMENT_PROVIDER_UNAVAILABLE, "The payment provider did not list its charges; nothing was changed. Try again shortly."), Duration.ofSeconds(5));
        }
    }

    /** The newest report, of any instance. */
    public Optional<ReconciliationReport> latest() {
        return recent(1).stream().findFirst();
    }

    /** The newest reports, of any instance, newest first. */
    @Transactional
    public List<ReconciliationReport> recent(int limit) {
        @SuppressWarnings("unchecked")
        List<String> reports = db.createNativeQuery(RECENT).setParameter("limit", limit).getResultList();
        return reports.stream().map(this::read).toList();
    }

    /**
     * One charge, in one transaction: its verdict, and a refund queued when nothing accounts for money
     * this deployment took. A charge that took nothing is never refunded; one this deployment did not
     * make is reported as {@code foreign} and left alone; one of another amount than its payment's is
     * reported for staff.
     */
    @Transactional
    Verdict examine(ProviderCharge charge, List<Mismatch> mismatches) {
        if (charge.tookNothing()) {
            return Verdict.NOT_CHARGED;
        }
        if (!charge.charged()) {
            return Verdict.UNSETTLED;
        }
        if (!ours(charge)) {
            return mismatch(MismatchKind.FOREIGN, charge, mismatches, "none: not made by this deployment");
        }
        if (charge.isRefunded()) {
            return Verdict.REFUNDED;
        }
        Optional<Payment> found = payments.byKey(charge.key());
        if (found.isEmpty()) {
            return refund(MismatchKind.UNKNOWN_CHARGE, charge, mismatches);
        }
        Payment payment = found.get();
        switch (payment.status) {
            case PROCESSING:
                return Verdict.UNSETTLED;
            case REFUNDED:
                // Staff who settled a refused refund as given back outside the engine said where the money went.
                return payments.refundedOutside(payment.orderId, charge.reference())
                        ? Verdict.REFUNDED
                        : mismatch(MismatchKind.REFUND_NOT_AT_PROVIDER, charge, mismatches, "none: the payment says refunded");
            default:
                break;
        }
        if (payments.refundQueued(payment.orderId, charge.reference())) {
            return Verdict.REFUND_PENDING;
        }
        if (payment.status == Payment.Status.FAILURE) {
            return refund(MismatchKind.CHARGE_OF_FAILED_PAYMENT, charge, mismatches);
        }
        if (!charge.isFor(payment.amount, payment.currency)) {
            MismatchKind kind = payment.currency.equalsIgnoreCase(charge.currency()) ? MismatchKind.WRONG_AMOUNT : MismatchKind.WRONG_CURRENCY;
            return mismatch(kind, charge, mismatches, "none: reported for staff; the payment was for "
                    + Money.format(payment.amount, payment.currency) + " " + payment.currency);
        }
        boolean ordersCharge = payments.charged(payment.orderId).map(first -> first.id.equals(payment.id)).orElse(false);
        if (ordersCharge && PAID.contains(orders.snapshot(payment.orderId).status())) {
            return Verdict.MATCHED;
        }
        return refund(ordersCharge ? MismatchKind.CHARGE_WITHOUT_PAID_ORDER : MismatchKind.DUPLICATE_CHARGE, charge, mismatches);
    }

    /** Whether this deployment made the charge: its key form, and its name in the metadata (charges from before it was sent have none). */
    private boolean ours(ProviderCharge charge) {
        String deployment = charge.metadata(ChargeRequest.DEPLOYMENT);
        return charge.key() != null && OUR_KEYS.matcher(charge.key()).matches()
                && (deployment == null || deployment.equals(config.deploymentId()));
    }

    /** Queues the refund of a charge of this deployment that nothing accounts for, under a key no other refund uses. */
    private Verdict refund(MismatchKind kind, ProviderCharge charge, List<Mismatch> mismatches) {
        refunds.queueStray(charge);
        return mismatch(kind, charge, mismatches, "refund queued");
    }

    /** Records a charge that nothing accounts for, counted by kind. */
    private Verdict mismatch(MismatchKind kind, ProviderCharge charge, List<Mismatch> mismatches, String action) {
        mismatchesByKind.increment(kind);
        mismatches.add(new Mismatch(kind.label(), charge.key(), charge.reference(), charge.orderId(), charge.amount(), charge.currency(), action));
        LOG.warnf("Reconciliation: charge %s (%s) is a %s; %s", charge.key(), charge.reference(), kind.label(), action);
        return Verdict.MISMATCH;
    }

    @Transactional
    void save(ReconciliationReport report) {
        try {
            db.createNativeQuery(SAVE).setParameter("started", report.startedAt()).setParameter("finished", report.finishedAt())
                    .setParameter("report", json.write(report)).executeUpdate();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A report always serialises", e);
        }
    }

    private ReconciliationReport read(String report) {
        try {
            return json.read(report, ReconciliationReport.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A kept report always reads back", e);
        }
    }
}
