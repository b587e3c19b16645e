package io.orderflow.payment;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import io.orderflow.outbox.OutboxDelivery;
import io.orderflow.outbox.OutboxMessage;

/**
 * Refunds the provider refused for good, for staff: listed with the provider's reason, and settled either
 * as given back outside the engine (the payment becomes REFUNDED, as a refund the provider made would make
 * it, and nothing more is sent) or by trying again. Each decision is kept in {@code refund_settlements}
 * with who made it and why; settling one that is no longer refused changes nothing and says where it stands.
 */
@ApplicationScoped
public class RefusedRefunds {

    /** What staff decided. */
    public enum Resolution {
        REFUNDED_OUTSIDE("refunded-outside"), RETRY("retry");

        final String wire;

        Resolution(String wire) {
            this.wire = wire;
        }

        /** The resolution as a settlement names it: {@code refunded-outside} or {@code retry}. */
        public String wire() {
            return wire;
        }

        static Optional<Resolution> of(String wire) {
            return Arrays.stream(values()).filter(resolution -> resolution.wire.equals(wire)).findFirst();
        }
    }

    /** Where a refund stands, as staff read it. */
    public static final String REFUSED = "refund-refused";
    public static final String PENDING = "pending";
    public static final String REFUNDED = "refunded";
    public static final String REFUNDED_OUTSIDE = "refunded-outside";
    /** Every state a refund may stand in. */
    public static final List<String> STATES = List.of(REFUSED, PENDING, REFUNDED, REFUNDED_OUTSIDE);

    private static final Logger LOG = Logger.getLogger(RefusedRefunds.class);
    private static final String RECORD = """
            INSERT INTO refund_settlements (outbox_id, order_id, refund_key, resolution, refusal, note, settled_by, settled_at)
            VALUES (:outboxId, :orderId, :refundKey, :resolution, :refusal, :note, :settledBy, :now)""";
    private static final String LAST_RESOLUTION = """
            SELECT resolution FROM refund_settlements WHERE outbox_id = :outboxId ORDER BY id DESC LIMIT 1""";

    private final OutboxDelivery outbox;
    private final Refunds refunds;
    private final PaymentStore payments;
    private final EntityManager db;

    RefusedRefunds(OutboxDelivery outbox, Refunds refunds, PaymentStore payments, EntityManager db) {
        this.outbox = outbox;
        this.refunds = refunds;
        this.payments = payments;
        this.db = db;
    }

    /** A refund that was refused, and the refund it asks for. */
    public record Refused(OutboxMessage message, RefundRequest refund) {
    }

    /** Where a refund stands after a settle. */
    public record Standing(long id, String orderId, String refundKey, String state) {
    }

    /** The first refunds refused for good, oldest first. */
    @Transactional
    public List<Refused> list(int limit) {
        return outbox.refused(Refunds.KIND, limit).stream().map(message -> new Refused(message, refunds.read(message))).toList();
    }

    /**
     * Settles a refused refund as staff decided, in one transaction with the record of the decision; empty when there is no such
     * refund. A settlement that is not valid is refused ({@code validation-failed}) before anything happens.
     */
    @Transactional
    public Optional<Standing> settle(long id, Settlement settlement, String staff) {
        Resolution resolution = Settlement.validated(settlement);
        Optional<OutboxMessage> refused = outbox.refusedForSettling(id, Refunds.KIND);
        if (refused.isEmpty()) {
            return standing(id);
        }
        OutboxMessage message = refused.get();
        String state;
        if (resolution == Resolution.REFUNDED_OUTSIDE) {
            outbox.settleRefused(id, Refunds.KIND);
            refunds.chargeOf(refunds.read(message)).ifPresent(payments::refunded);
            state = REFUNDED_OUTSIDE;
        } else {
            outbox.retryRefused(id, Refunds.KIND);
            state = PENDING;
        }
        db.createNativeQuery(RECORD).setParameter("outboxId", id).setParameter("orderId", message.orderId)
                .setParameter("refundKey", message.idempotencyKey).setParameter("resolution", resolution.wire)
                .setParameter("refusal", message.lastErrorMessage).setParameter("note", settlement.note()).setParameter("settledBy", staff)
                .setParameter("now", Instant.now()).executeUpdate();
        LOG.infof("Refund %s of order %s, refused (%s), was settled by %s: %s", message.idempotencyKey, message.orderId,
                message.lastErrorMessage, staff, resolution.wire);
        return Optional.of(new Standing(id, message.orderId.toString(), message.idempotencyKey, state));
    }

    /** Where a refund stands that is not refused (any more). */
    private Optional<Standing> standing(long id) {
        return outbox.standing(id, Refunds.KIND).map(found -> new Standing(id, found.orderId().toString(), found.idempotencyKey(),
                stateOf(id, found.status())));
    }

    private String stateOf(long id, String status) {
        return switch (status) {
            case "DELIVERED" -> Resolution.REFUNDED_OUTSIDE.wire.equals(lastResolution(id)) ? REFUNDED_OUTSIDE : REFUNDED;
            case "REFUSED" -> REFUSED;
            // Refunds are never dead letters (V12): what is not delivered or refused is in line.
            default -> PENDING;
        };
    }

    private String lastResolution(long id) {
        @SuppressWarnings("unchecked")
        List<String> resolutions = db.createNativeQuery(LAST_RESOLUTION).setParameter("outboxId", id).getResultList();
        return resolutions.stream().findFirst().orElse(null);
    }
}
