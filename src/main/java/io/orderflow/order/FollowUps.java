package io.orderflow.order;

import java.util.Optional;
import java.util.UUID;

/**
 * What happened to an order after it moved on, told by the features that act on it (they sit above this package):
 * the refund of a paid order that was cancelled, and the shipment of a shipped one.
 */
public final class FollowUps {

    private FollowUps() {
    }

    /** The refund of an order's payment, if it has one. */
    public interface Refunds {
        Optional<OrderView.Refund> of(UUID orderId);
    }

    /** What the warehouse answered to an order's shipment request, if it has answered. */
    public interface Shipments {
        Optional<String> referenceOf(UUID orderId);
    }
}
