package io.orderflow.payment;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.transaction.Transactional;

import org.hibernate.Session;
import org.hibernate.query.NativeQuery;

import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Payment attempts. Only one request or job talks to the provider about an attempt at a time: it
 * claims the attempt first, and every later write of the row is fenced by the claim's id and by the
 * status it expects, so a holder that was slow and lost its claim can change nothing.
 */
@ApplicationScoped
class PaymentStore {

    private static final String CLAIM_COLUMNS = "id, order_id, attempt, idempotency_key, amount, currency, payment_method, claim_id, sent_at";
    private static final String LATEST_FOR_UPDATE = """
            SELECT id, attempt, status FROM payments WHERE order_id = :orderId ORDER BY attempt DESC LIMIT 1 FOR UPDATE""";
    private static final String INSERT_ATTEMPT = """
            INSERT INTO payments (idempotency_key, order_id, attempt, amount, currency, payment_method, status, channel,
                claim_id, claimed_until, sent_at, next_check_at, created_at, updated_at)
            VALUES (:key, :orderId, :attempt, :amount, :currency, :method, 'PROCESSING', :channel,
                :claim, :until, :now, :until, :now, :now)
            ON CONFLICT DO NOTHING
            RETURNING id""";
    /** A charger re-sends an attempt whose holder is gone; the horizon counts from this send. */
    private static final String TAKE_OVER_TO_SEND = """
            UPDATE payments SET claim_id = :claim, claimed_until = :until, next_check_at = :until, sent_at = :now, updated_at = :now
            WHERE id = :id AND status = 'PROCESSING' AND claimed_until < :now
            RETURNING\s""" + CLAIM_COLUMNS;
    /** Recovery asks about an attempt; it sends nothing, so the horizon stays where it was. */
    private static final String TAKE_OVER_TO_CHECK = """
            UPDATE payments SET claim_id = :claim, claimed_until = :until, next_check_at = :until, updated_at = :now
            WHERE id = :id AND status = 'PROCESSING' AND claimed_until < :now AND next_check_at <= :now
            RETURNING\s""" + CLAIM_COLUMNS;
    /** A provider's notification settles an open attempt that no request or job is talking to the provider about. */
    private static final String TAKE_OVER_TO_SETTLE = """
            UPDATE payments SET claim_id = :claim, claimed_until = :until, next_check_at = :until, updated_at = :now
            WHERE idempotency_key = :key AND status = 'PROCESSING' AND claimed_until < :now
            RETURNING\s""" + CLAIM_COLUMNS;
    private static final String RELEASE = """
            UPDATE payments SET claimed_until = :now, next_check_at = :next, updated_at = :now
            WHERE id = :id AND claim_id = :claim AND status = 'PROCESSING'""";
    private static final String FAIL = """
            UPDATE payments SET status = 'FAILURE', claimed_until = NULL, next_check_at = NULL, failure_reason = :reason, updated_at = :now
            WHERE id = :id AND claim_id = :claim AND status = 'PROCESSING'""";
    private static final String SUCCEED = """
            UPDATE payments SET status = 'SUCCESS', claimed_until = NULL, next_check_at = NULL, channel_transaction_id = :reference,
                updated_at = :now
            WHERE id = :id AND claim_id = :claim AND status = 'PROCESSING'""";
    private static final String REFUNDED = """
            UPDATE payments SET status = 'REFUNDED', updated_at = :now WHERE channel_transaction_id = :reference AND status = 'SUCCESS'""";
    private static final String DUE_FOR_CHECK = """
            SELECT id FROM payments WHERE status = 'PROCESSING' AND next_check_at <= :now AND claimed_until < :now
            ORDER BY next_check_at LIMIT :limit""";
    private static final String OTHER_CHARGES = """
            SELECT count(*) FROM payments WHERE order_id = :orderId AND id <> :id AND status IN ('SUCCESS', 'REFUNDED')""";

    // A dead letter is not on its way back: nobody is making it. A refused refund is in staff's hands (they settle it), so
    // reconciliation does not queue another refund of its charge.
    private static final String REFUND_QUEUED = """
            SELECT count(*) FROM outbox_all WHERE kind = 'refund' AND order_id = :orderId AND status <> 'DEAD'
                AND coalesce(CAST(payload AS jsonb) ->> 'charge', :reference) = :reference""";
    private static final String REFUNDED_OUTSIDE = """
            SELECT count(*) FROM refund_settlements s JOIN outbox_all o ON o.id = s.outbox_id
            WHERE s.order_id = :orderId AND s.resolution = 'refunded-outside' AND o.kind = 'refund'
                AND coalesce(CAST(o.payload AS jsonb) ->> 'charge', :reference) = :reference""";

    private final EntityManager db;
    private final PaymentConfig config;

    public PaymentStore(EntityManager db, PaymentConfig config) {
        this.db = db;
        this.config = config;
    }

    /**
     * Claims an order's payment for a request that is about to charge: a new attempt when there is
     * none or the last one was certainly not charged, or the open attempt when its holder's lease ran
     * out (it is re-sent under the same key, with what it was first sent with). Empty when another
     * request holds the open attempt or the order's charge succeeded.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<PaymentClaim> claimToCharge(UUID orderId, BigDecimal amount, String currency, String paymentMethod) {
        Instant now = Instant.now();
        // Most orders are paid at the first attempt: it is inserted without a look first, one statement that needs
        // no transaction of its own (no BEGIN and COMMIT to wait for). Any attempt of the order conflicts with it (a
        // first one exists whenever any does), and the look that follows decides, locked, in a transaction.
        Optional<PaymentClaim> first = newAttempt(orderId, 1, amount, currency, paymentMethod, now);
        if (first.isPresent()) {
            return first;
        }
        return QuarkusTransaction.joiningExisting().call(() -> laterAttempt(orderId, amount, currency, paymentMethod, now));
    }

    private Optional<PaymentClaim> laterAttempt(UUID orderId, BigDecimal amount, String currency, String paymentMethod, Instant now) {
        Optional<Object[]> latest = withRows(LATEST_FOR_UPDATE).addScalar("id", Long.class).addScalar("attempt", Integer.class)
                .addScalar("status", String.class).setParameter("orderId", orderId).getResultList().stream().findFirst();
        String status = latest.map(row -> (String) row[2]).orElse(Payment.Status.FAILURE.name());
        if (status.equals(Payment.Status.FAILURE.name())) {
            return newAttempt(orderId, latest.map(row -> (Integer) row[1] + 1).orElse(1), amount, currency, paymentMethod, now);
        }
        if (status.equals(Payment.Status.PROCESSING.name())) {
            return claim(claiming(TAKE_OVER_TO_SEND).setParameter("id", latest.get()[0]), now);
        }
        return Optional.empty();
    }

    /** Inserts and claims the order's attempt number {@code attempt}; empty when the order has it already. */
    private Optional<PaymentClaim> newAttempt(UUID orderId, int attempt, BigDecimal amount, String currency, String paymentMethod,
            Instant now) {
        // The claim is what this statement wrote: only the row's id comes back, as a row of bounded size costs pgjdbc
        // no round trip of its own before the statement.
        String key = Payment.keyFor(orderId, attempt);
        UUID claimId = UUID.randomUUID();
        List<?> ids = db.createNativeQuery(INSERT_ATTEMPT).setParameter("key", key).setParameter("orderId", orderId)
                .setParameter("attempt", attempt).setParameter("amount", amount).setParameter("currency", currency)
                .setParameter("method", paymentMethod).setParameter("channel", config.channel())
                .setParameter("claim", claimId).setParameter("until", now.plus(config.lease())).setParameter("now", now)
                .getResultList();
        return ids.stream().findFirst()
                .map(id -> new PaymentClaim(((Number) id).longValue(), orderId, attempt, key, amount, currency, paymentMethod, claimId, now.truncatedTo(ChronoUnit.MICROS)));
    }

    /** Claims an open attempt whose holder is gone and whose next check is due, for recovery to ask about it. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Optional<PaymentClaim> claimToCheck(long paymentId) {
        return claim(claiming(TAKE_OVER_TO_CHECK).setParameter("id", paymentId), Instant.now());
    }

    /** Claims the open attempt of a charge key, unless a request or job holds it (that one settles it). */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Optional<PaymentClaim> claimToSettle(String key) {
        return claim(claiming(TAKE_OVER_TO_SETTLE).setParameter("key", key), Instant.now());
    }

    /** Gives up a claim without knowing the outcome; recovery asks the provider again at {@code nextCheck}. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean release(PaymentClaim claim, Instant nextCheck) {
        return fenced(RELEASE, claim).setParameter("next", nextCheck).executeUpdate() == 1;
    }

    /** The provider certainly did not charge under this attempt's key (declined, refused, voided); in the caller's transaction if any. */
    @Transactional
    public boolean failed(PaymentClaim claim, String reason) {
        return fenced(FAIL, claim).setParameter("reason", reason).executeUpdate() == 1;
    }

    /** In the caller's transaction: the provider charged under this attempt's key. */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean succeeded(PaymentClaim claim, String reference) {
        return fenced(SUCCEED, claim).setParameter("reference", reference).executeUpdate() == 1;
    }

    /** The charge with this provider reference was given back. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void refunded(String chargeReference) {
        db.createNativeQuery(REFUNDED).setParameter("reference", chargeReference).setParameter("now", Instant.now()).executeUpdate();
    }

    /** Whether the order has a charge other than this attempt's (succeeded or refunded). */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean hasOtherCharge(UUID orderId, long paymentId) {
        return ((Number) db.createNativeQuery(OTHER_CHARGES).setParameter("orderId", orderId).setParameter("id", paymentId)
                .getSingleResult()).longValue() > 0;
    }

    /**
     * Whether a refund of this charge is in line or was delivered (one queued before refunds named their charge counts too);
     * a dead-lettered one does not.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean refundQueued(UUID orderId, String chargeReference) {
        return ((Number) db.createNativeQuery(REFUND_QUEUED).setParameter("orderId", orderId).setParameter("reference", chargeReference)
                .getSingleResult()).longValue() > 0;
    }

    /** Whether staff settled a refused refund of this charge as given back outside the engine. */
    @Transactional
    public boolean refundedOutside(UUID orderId, String chargeReference) {
        return ((Number) db.createNativeQuery(REFUNDED_OUTSIDE).setParameter("orderId", orderId).setParameter("reference", chargeReference)
                .getSingleResult()).longValue() > 0;
    }

    /** The order's latest attempt. */
    @Transactional
    public Optional<Payment> latest(UUID orderId) {
        return Payment.<Payment>find("orderId = ?1 order by attempt desc", orderId).firstResultOptional();
    }

    /** The order's successful charge (its first, should there be more), the one a cancel gives back. */
    @Transactional
    public Optional<Payment> charged(UUID orderId) {
        return Payment.<Payment>find("orderId = ?1 and status = ?2 order by attempt", orderId, Payment.Status.SUCCESS).firstResultOptional();
    }

    @Transactional
    public Optional<Payment> byKey(String key) {
        return Payment.<Payment>find("idempotencyKey", key).firstResultOptional();
    }

    /** Open attempts whose holder is gone and whose next check is due. */
    @Transactional
    public List<Long> dueForCheck(Instant now, int limit) {
        @SuppressWarnings("unchecked")
        List<Number> ids = db.createNativeQuery(DUE_FOR_CHECK).setParameter("now", now).setParameter("limit", limit).getResultList();
        return ids.stream().map(Number::longValue).toList();
    }

    /**
     * A statement that claims an attempt and returns its {@link #CLAIM_COLUMNS}, typed up front: left to
     * itself, Hibernate works out each column's type from the result set's metadata on every run.
     */
    private NativeQuery<Object[]> claiming(String statement) {
        return withRows(statement).addScalar("id", Long.class).addScalar("order_id", UUID.class).addScalar("attempt", Integer.class)
                .addScalar("idempotency_key", String.class).addScalar("amount", BigDecimal.class).addScalar("currency", String.class)
                .addScalar("payment_method", String.class).addScalar("claim_id", UUID.class).addScalar("sent_at", Instant.class);
    }

    /** Runs a claiming statement with a fresh claim id and lease; empty when it claimed nothing. */
    private Optional<PaymentClaim> claim(NativeQuery<Object[]> statement, Instant now) {
        statement.setParameter("claim", UUID.randomUUID()).setParameter("until", now.plus(config.lease())).setParameter("now", now);
        return statement.getResultList().stream().findFirst().map(row -> new PaymentClaim((Long) row[0], (UUID) row[1], (Integer) row[2],
                (String) row[3], (BigDecimal) row[4], (String) row[5], (String) row[6], (UUID) row[7], (Instant) row[8]));
    }

    private Query fenced(String statement, PaymentClaim claim) {
        return db.createNativeQuery(statement).setParameter("id", claim.id()).setParameter("claim", claim.claimId())
                .setParameter("now", Instant.now());
    }

    /** A native statement whose result columns the caller names and types with {@code addScalar}. */
    private NativeQuery<Object[]> withRows(String statement) {
        return db.unwrap(Session.class).createNativeQuery(statement, Object[].class);
    }
}
