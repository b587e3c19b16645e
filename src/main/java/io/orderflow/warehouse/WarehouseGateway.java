package io.orderflow.warehouse;

import java.time.temporal.ChronoUnit;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Calls to the warehouse, as {@code payment.PaymentGateway} is to the payment provider: each call one
 * attempt with its own timeout, since shipments go through the outbox, which retries them with persisted
 * backoff, always with the shipment's key. Override per deployment with MicroProfile config, e.g.
 * {@code io.orderflow.warehouse.WarehouseGateway/Timeout/value=10000}.
 */
@ApplicationScoped
@Timeout(value = 5, unit = ChronoUnit.SECONDS)
class WarehouseGateway {

    private final WarehouseClient warehouse;

    WarehouseGateway(@RestClient WarehouseClient warehouse) {
        this.warehouse = warehouse;
    }

    ShipmentReceipt requestShipment(String key, ShipmentRequest request) {
        return warehouse.requestShipment(key, request);
    }
}
