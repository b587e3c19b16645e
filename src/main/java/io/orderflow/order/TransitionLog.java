package io.orderflow.order;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;

import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.shared.logging.BusinessEvent;

/** Logs each order a transition moved, once its transaction committed: a rolled back change never happened. */
@ApplicationScoped
class TransitionLog {

    void log(@Observes(during = TransactionPhase.AFTER_SUCCESS) OrderStatusChanges changes) {
        BusinessEvent logged = of(changes.event());
        changes.all().forEach(change -> logged.log(change.orderId(), changes.actor()));
    }

    private static BusinessEvent of(OrderEvent event) {
        return switch (event) {
            case PAY -> BusinessEvent.PAID;
            case SHIP -> BusinessEvent.SHIPPED;
            case DELIVER, CONFIRM -> BusinessEvent.DELIVERED;
            case CANCEL -> BusinessEvent.CANCELLED;
            case EXPIRE -> BusinessEvent.EXPIRED;
        };
    }
}
