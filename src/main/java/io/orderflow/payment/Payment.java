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

/** One payment per order, keyed by the idempotency key the provider is called with. */
@Entity
@Table(name = "payments")
public class Payment extends PanacheEntityBase {

    public enum Status {
        /** Claimed: a request is charging, or did and its outcome is not known yet. */
        PROCESSING,
        SUCCESS,
        /** Declined or refused: the order stays created and may be paid again. */
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

    @Column(name = "failure_reason")
    public String failureReason;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "updated_at")
    public Instant updatedAt;

    public static String keyFor(UUID orderId) {
        return "payment:" + orderId;
    }

    public static String refundKeyFor(UUID orderId) {
        return "refund:" + orderId;
    }
}
