package io.orderflow.warehouse;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.persistence.EntityManager;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.orderflow.customer.AddressStore;
import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.order.OrderStatusChanged;
import io.orderflow.order.OrderStatusChanges;
import io.orderflow.outbox.OutboxHandler;
import io.orderflow.outbox.OutboxMessage;
import io.orderflow.outbox.OutboxWriter;
import io.orderflow.shared.StoredJson;

/**
 * A shipped order asks the warehouse for a shipment to its address: the request is written to the outbox in the
 * transaction of paid -> shipped and delivered after commit, with the key {@code shipment:{orderId}},
 * retried with persisted backoff across restarts until it succeeds (the warehouse's reference is then kept) or, after orders.outbox.max-attempts,
 * is dead-lettered for staff to see (orders_outbox_dead) and retry.
 */
@ApplicationScoped
public class Shipments implements OutboxHandler {

    static final String KIND = "shipment";
    private static final String LINES = "SELECT sku, quantity FROM order_items WHERE order_id = :id ORDER BY line_no";
    private static final String ADDRESS = "SELECT CAST(shipping_address AS text) FROM orders WHERE id = :id";

    private final OutboxWriter outbox;
    private final WarehouseGateway warehouse;
    private final EntityManager db;
    private final StoredJson json;
    private final AddressStore addresses;
    private final ShipmentReceipts receipts;

    public Shipments(OutboxWriter outbox, WarehouseGateway warehouse, EntityManager db, StoredJson json, AddressStore addresses,
            ShipmentReceipts receipts) {
        this.outbox = outbox;
        this.warehouse = warehouse;
        this.db = db;
        this.json = json;
        this.addresses = addresses;
        this.receipts = receipts;
    }

    void queue(@Observes(during = TransactionPhase.IN_PROGRESS) OrderStatusChanges changes) {
        changes.by(OrderEvent.SHIP).forEach(this::queue);
    }

    private void queue(OrderStatusChanged change) {
        @SuppressWarnings("unchecked")
        List<Object[]> lines = db.createNativeQuery(LINES)
                .setParameter("id", change.orderId()).getResultList();
        String address = (String) db.createNativeQuery(ADDRESS).setParameter("id", change.orderId()).getSingleResult();
        ShipmentRequest request = new ShipmentRequest(change.orderId(),
                lines.stream().map(line -> new ShipmentRequest.Item((String) line[0], ((Number) line[1]).intValue())).toList(),
                address == null ? null : addresses.read(address));
        outbox.enqueue(KIND, change.orderId(), "shipment:" + change.orderId(), request);
    }

    @Override
    public String kind() {
        return KIND;
    }

    /** A warehouse that keeps refusing a shipment needs a person to look at it: staff retry it once it is fixed. */
    @Override
    public boolean mayGiveUp() {
        return true;
    }

    /** One attempt per outbox run; the outbox spaces the attempts out and survives restarts. */
    @Override
    public void deliver(OutboxMessage message) {
        try {
            ShipmentRequest request = json.read(message.payload, ShipmentRequest.class);
            receipts.keep(request.orderId(), warehouse.requestShipment(message.idempotencyKey, request));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Unreadable shipment " + message.idempotencyKey, e);
        }
    }
}
