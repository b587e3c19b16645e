package io.orderflow.outbox;

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

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** Work to do after a commit, with its delivery attempts; once delivered it moves to {@code outbox_delivered}. */
@Entity
@Table(name = "outbox")
public class OutboxMessage extends PanacheEntityBase {

    public enum Status {
        PENDING, DEAD,
        /** Refused for good by its receiver (see {@link MessageRefusedException}): waits for staff to settle it. */
        REFUSED
    }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(length = 32)
    public String kind;

    @Column(name = "order_id")
    public UUID orderId;

    @Column(name = "idempotency_key")
    public String idempotencyKey;

    @Column(columnDefinition = "text")
    public String payload;

    @Column(length = 16)
    @Enumerated(EnumType.STRING)
    public Status status;

    public int attempts;

    @Column(name = "next_attempt_at")
    public Instant nextAttemptAt;

    /** Why the last attempt failed (see {@link DeliveryError}); null after a delivery. */
    @Column(name = "last_error_code", length = 64)
    public String lastErrorCode;

    @Column(name = "last_error_message", length = 1000)
    public String lastErrorMessage;

    @Column(name = "created_at")
    public Instant createdAt;

    /** The W3C traceparent of the traced work that wrote the message; null when none was recorded. */
    @Column(name = "trace_parent")
    public String traceParent;
}
