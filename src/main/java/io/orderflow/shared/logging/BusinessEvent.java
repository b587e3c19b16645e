package io.orderflow.shared.logging;

import java.util.UUID;

import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

import io.orderflow.shared.metrics.Counters;

/**
 * What happened to an order that the business follows, each logged once, at INFO, where it is decided (after its
 * commit where it commits): "Order {id} {event} by {actor}", with the order's id, the actor and the event also in the
 * MDC, beside the request's traceId, so that the JSON log carries each as a field of its own.
 */
public enum BusinessEvent {
    CREATED, PAID, DECLINED, REFUNDED, REFUND_REFUSED, SHIPPED, DELIVERED, CANCELLED, EXPIRED;

    /** The MDC keys of the line. */
    public static final String ORDER_ID = "orderId";
    public static final String ACTOR = "actor";
    public static final String EVENT = "event";
    /** One category for them all, so that a deployment can route or silence them together. */
    private static final Logger LOG = Logger.getLogger("io.orderflow.business");

    /** The event as the line and its {@code event} field name it: {@code refund-refused}. */
    public String label() {
        return Counters.label(this);
    }

    public void log(UUID orderId, String actor) {
        MDC.put(ORDER_ID, String.valueOf(orderId));
        MDC.put(ACTOR, actor);
        MDC.put(EVENT, label());
        try {
            LOG.infof("Order %s %s by %s", orderId, label(), actor);
        } finally {
            MDC.remove(ORDER_ID);
            MDC.remove(ACTOR);
            MDC.remove(EVENT);
        }
    }
}
