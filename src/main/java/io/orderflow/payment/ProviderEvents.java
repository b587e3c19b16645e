package io.orderflow.payment;

import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.order.OrderTransitions;

/**
 * Settles payments and refunds by the provider's event notifications, sooner than recovery or
 * reconciliation would and by exactly their rules ({@link PaymentService#settle}). Notifications come in
 * any order and any number of times: each is handled once by its id, and each settles only an attempt
 * still open, which changes state once, so a late or repeated one changes nothing.
 */
@ApplicationScoped
class ProviderEvents {

    private static final Logger LOG = Logger.getLogger(ProviderEvents.class);
    private static final String ACTOR = "provider-event";
    private static final String SEEN = "SELECT count(*) FROM provider_events WHERE id = :id";
    private static final String RECORD = """
            INSERT INTO provider_events (id, type, received_at) VALUES (:id, :type, :now) ON CONFLICT (id) DO NOTHING""";

    private final PaymentStore payments;
    private final PaymentService service;
    private final OrderTransitions orders;
    private final EntityManager db;
    private final MeterRegistry metrics;

    ProviderEvents(PaymentStore payments, PaymentService service, OrderTransitions orders, EntityManager db, MeterRegistry metrics) {
        this.payments = payments;
        this.service = service;
        this.orders = orders;
        this.db = db;
        this.metrics = metrics;
    }

    /**
     * Acts on a notification unless it was handled before; recorded as handled only once its effect is,
     * so a failure halfway leaves it to the provider's next repeat.
     */
    void handle(ProviderEvent event) {
        if (seen(event.id())) {
            count(event, "repeated");
            return;
        }
        String outcome = switch (event.type()) {
            case ProviderEvent.CHARGE_SUCCEEDED, ProviderEvent.CHARGE_FAILED, ProviderEvent.ACTION_COMPLETED -> settle(event.data());
            case ProviderEvent.CHARGE_REFUNDED -> refunded(event.data());
            default -> "ignored";
        };
        record(event);
        count(event, outcome);
    }

    /** The open attempt of the charge's key, settled by what the notification says; nothing when none is open. */
    private String settle(ProviderCharge charge) {
        Optional<PaymentClaim> claim = payments.claimToSettle(charge.key());
        if (claim.isEmpty()) {
            // Settled already, being sent by a request that will learn the same, or not a key of ours.
            return "nothing-open";
        }
        service.settle(claim.get(), orders.snapshot(claim.get().orderId()).customer(), Optional.of(charge), ACTOR);
        LOG.infof("Provider event settled payment %s (%s)", charge.key(), charge.status());
        return "settled";
    }

    @Transactional
    String refunded(ProviderCharge charge) {
        if (charge.isRefunded() && charge.reference() != null) {
            payments.refunded(charge.reference());
            return "settled";
        }
        return "ignored";
    }

    @Transactional
    boolean seen(String id) {
        return ((Number) db.createNativeQuery(SEEN).setParameter("id", id).getSingleResult()).longValue() > 0;
    }

    @Transactional
    void record(ProviderEvent event) {
        db.createNativeQuery(RECORD).setParameter("id", event.id()).setParameter("type", event.type()).setParameter("now", Instant.now())
                .executeUpdate();
    }

    private void count(ProviderEvent event, String outcome) {
        String type = ProviderEvent.READ.contains(event.type()) ? event.type() : "other";
        metrics.counter("orders.payments.provider.events", "type", type, "outcome", outcome).increment();
    }
}
