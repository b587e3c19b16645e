package io.orderflow.payment;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * One attempt at charging an order, keyed by the idempotency key the provider is called with:
 * {@code payment:{orderId}:{attempt}}. A new attempt follows only a certain "not charged".
 */
@Entity
@Table(name = "payments")
public class Payment extends PanacheEntityBase {

    public enum Status {
        /** Claimed: a request is charging, or did and its outcome is not known yet. */
        PROCESSING,
        SUCCESS,
        /** Certainly not charged (declined, refused, voided): the order may be paid again with a new attempt. */
        FAILURE,
        REFUNDED
    }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "idempotency_key")
    public String idempotencyKey;

    @Column(name = "order_id")
    public UUID orderId;

    public int attempt;

    @Column(name = "payment_method", length = 64)
    public String paymentMethod;

    @Column(precision = 19, scale = 4)
    public BigDecimal amount;

    @Column(length = 3)
    @JdbcTypeCode(SqlTypes.CHAR)
    public String currency;

    @Column(length = 16)
    @Enumerated(EnumType.STRING)
    public Status status;

    @Column(length = 32)
    public String channel;

    @Column(name = "channel_transaction_id")
    public String channelTransactionId;

    /** Until when the claiming request may talk to the provider; past it, the outcome must be asked for. */
    @Column(name = "claimed_until")
    public Instant claimedUntil;

    /** The current holder's fencing token. */
    @Column(name = "claim_id")
    public UUID claimId;

    @Column(name = "sent_at")
    public Instant sentAt;

    @Column(name = "next_check_at")
    public Instant nextCheckAt;

    @Column(name = "failure_reason")
    public String failureReason;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "updated_at")
    public Instant updatedAt;

    /** The provider key of an order's n-th attempt. */
    public static String keyFor(UUID orderId, int attempt) {
        return "payment:" + orderId + ":" + attempt;
    }
}
