package io.orderflow.warehouse;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import io.orderflow.order.FollowUps;

/** The warehouse's reference of each order's shipment, kept once it has accepted the request; a repeat of the request keeps the first. */
@ApplicationScoped
class ShipmentReceipts implements FollowUps.Shipments {

    private static final String KEEP = """
            INSERT INTO shipment_receipts (order_id, reference, accepted_at) VALUES (:orderId, :reference, :at)
            ON CONFLICT (order_id) DO NOTHING""";
    private static final String FIND = "SELECT reference FROM shipment_receipts WHERE order_id = :orderId";

    private final EntityManager db;

    ShipmentReceipts(EntityManager db) {
        this.db = db;
    }

    @Transactional
    void keep(UUID orderId, ShipmentReceipt receipt) {
        if (receipt != null && receipt.reference() != null && !receipt.reference().isBlank()) {
            db.createNativeQuery(KEEP).setParameter("orderId", orderId).setParameter("reference", receipt.reference())
                    .setParameter("at", Instant.now()).executeUpdate();
        }
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<String> referenceOf(UUID orderId) {
        List<?> rows = db.createNativeQuery(FIND).setParameter("orderId", orderId).getResultList();
        return rows.stream().findFirst().map(String.class::cast);
    }
}
