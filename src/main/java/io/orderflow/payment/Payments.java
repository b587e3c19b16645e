package io.orderflow.payment;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

/** Payment rows: claimed with an insert first, so that only one request ever talks to the provider for an order. */
@ApplicationScoped
public class Payments {

    private final EntityManager db;
    private final PaymentConfig config;

    public Payments(EntityManager db, PaymentConfig config) {
        this.db = db;
        this.config = config;
    }

    /**
     * Claims the order's payment for this request: a new row, or a row whose last attempt failed or
     * whose claimant's lease ran out (its outcome will be asked of the provider with the same key).
     * Empty when another request holds it or it succeeded already.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Optional<Payment> claim(UUID orderId, BigDecimal amount, String currency) {
        Instant now = Instant.now();
        Instant until = now.plus(config.lease());
        int inserted = db.createNativeQuery("""
                INSERT INTO payments (idempotency_key, order_id, amount, currency, status, channel, claimed_until, created_at, updated_at)
                VALUES (:key, :orderId, :amount, :currency, 'PROCESSING', :channel, :until, :now, :now)
                ON CONFLICT (idempotency_key) DO NOTHING""")
                .setParameter("key", Payment.keyFor(orderId)).setParameter("orderId", orderId).setParameter("amount", amount)
                .setParameter("currency", currency).setParameter("channel", config.channel()).setParameter("until", until)
                .setParameter("now", now).executeUpdate();
        if (inserted == 0) {
            int reclaimed = db.createNativeQuery("""
                    UPDATE payments SET status = 'PROCESSING', claimed_until = :until, failure_reason = NULL, updated_at = :now
                    WHERE idempotency_key = :key AND (status = 'FAILURE' OR (status = 'PROCESSING' AND claimed_until < :now))""")
                    .setParameter("until", until).setParameter("now", now).setParameter("key", Payment.keyFor(orderId))
                    .executeUpdate();
            if (reclaimed == 0) {
                return Optional.empty();
            }
        }
        return Optional.of(find(orderId).orElseThrow());
    }

    /** Gives up the claim without knowing the outcome (provider unreachable): the next pay or the recovery job asks. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void unresolved(UUID orderId) {
        update(orderId, "status = 'PROCESSING', claimed_until = :now", null);
    }

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void failed(UUID orderId, String reason) {
        update(orderId, "status = 'FAILURE', claimed_until = NULL, failure_reason = :value", reason);
    }

    /** In the caller's transaction: the provider charged. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void succeeded(UUID orderId, String reference) {
        update(orderId, "status = 'SUCCESS', claimed_until = NULL, channel_transaction_id = :value", reference);
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void refunded(UUID orderId) {
        update(orderId, "status = 'REFUNDED'", null);
    }

    @Transactional
    public Optional<Payment> find(UUID orderId) {
        return Payment.<Payment>find("idempotencyKey", Payment.keyFor(orderId)).firstResultOptional();
    }

    /** Payments left PROCESSING by a request that died or lost the provider, past their lease. */
    @Transactional
    public List<UUID> unresolvedBefore(Instant cutoff, int limit) {
        return Payment.<Payment>find("status = ?1 and claimedUntil < ?2", Payment.Status.PROCESSING, cutoff)
                .page(0, limit).list().stream().map(payment -> payment.orderId).toList();
    }

    private void update(UUID orderId, String assignments, String value) {
        var query = db.createNativeQuery("UPDATE payments SET " + assignments + ", updated_at = :now WHERE idempotency_key = :key")
                .setParameter("now", Instant.now()).setParameter("key", Payment.keyFor(orderId));
        if (value != null) {
            query.setParameter("value", value);
        }
        query.executeUpdate();
    }
}
