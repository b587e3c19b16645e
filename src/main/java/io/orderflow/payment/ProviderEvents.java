package io.orderflow.payment;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.orderflow.order.OrderTransitions;
import io.orderflow.shared.metrics.Counters;
import io.quarkus.runtime.Startup;

/**
 * Settles payments and refunds by the provider's event notifications, sooner than recovery or
 * reconciliation would and by exactly their rules ({@link PaymentService#settle}). Notifications come in
 * any order and any number of times: each is handled once by its id, and each settles only an attempt
 * still open, which changes state once, so a late or repeated one changes nothing.
 */
@Startup
@ApplicationScoped
class ProviderEvents {

    private static final Logger LOG = Logger.getLogger(ProviderEvents.class);
    private static final String ACTOR = "provider-event";
    /** The type tag of every notification of a type this service does not read. */
    private static final String OTHER = "other";
    private static final String SEEN = "SELECT count(*) FROM provider_events WHERE id = :id";
    private static final String RECORD = """
            INSERT INTO provider_events (id, type, received_at) VALUES (:id, :type, :now) ON CONFLICT (id) DO NOTHING""";

    private final PaymentStore payments;
    private final PaymentService service;
    private final OrderTransitions orders;
    private final EntityManager db;
    /** orders_payments_provider_events_total{type,outcome}, for every type read (and other) and every outcome. */
    private final Map<String, Counters<Outcome>> counted = new HashMap<>();

    /** What a notification came to. */
    enum Outcome {
        /** Handled before, by its id. */
        REPEATED, SETTLED,
        /** No attempt of its key was open. */
        NOTHING_OPEN, IGNORED
    }

    ProviderEvents(PaymentStore payments, PaymentService service, OrderTransitions orders, EntityManager db, MeterRegistry metrics) {
        this.payments = payments;
        this.service = service;
        this.orders = orders;
        this.db = db;
        for (String type : ProviderEvent.READ) {
            counted.put(type, counters(metrics, type));
        }
        counted.put(OTHER, counters(metrics, OTHER));
    }

    private static Counters<Outcome> counters(MeterRegistry metrics, String type) {
        return Counters.of(metrics, "orders.payments.provider.events", "The payment provider's notifications, by type and outcome",
                Tags.of("type", type), "outcome", Outcome.class);
    }

    /**
     * Acts on a notification unless it was handled before; recorded as handled only once its effect is,
     * so a failure halfway leaves it to the provider's next repeat.
     */
    void handle(ProviderEvent event) {
        if (seen(event.id())) {
            count(event, Outcome.REPEATED);
            return;
        }
        Outcome outcome = switch (event.type()) {
            case ProviderEvent.CHARGE_SUCCEEDED, ProviderEvent.CHARGE_FAILED, ProviderEvent.ACTION_COMPLETED -> settle(event.data());
            case ProviderEvent.CHARGE_REFUNDED -> refunded(event.data());
            default -> Outcome.IGNORED;
        };
        record(event);
        count(event, outcome);
    }

    /** The open attempt of the charge's key, settled by what the notification says; nothing when none is open. */
    private Outcome settle(ProviderCharge charge) {
        Optional<PaymentClaim> claim = payments.claimToSettle(charge.key());
        if (claim.isEmpty()) {
            // Settled already, being sent by a request that will learn the same, or not a key of ours.
            return Outcome.NOTHING_OPEN;
        }
        service.settle(claim.get(), orders.snapshot(claim.get().orderId()).customer(), Optional.of(charge), ACTOR);
        LOG.infof("Provider event settled payment %s (%s)", charge.key(), charge.status());
        return Outcome.SETTLED;
    }

    @Transactional
    Outcome refunded(ProviderCharge charge) {
        if (charge.isRefunded() && charge.reference() != null) {
            payments.refunded(charge.reference());
            return Outcome.SETTLED;
        }
        return Outcome.IGNORED;
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

    private void count(ProviderEvent event, Outcome outcome) {
        counted.getOrDefault(event.type(), counted.get(OTHER)).increment(outcome);
    }
}
