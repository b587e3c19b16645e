package io.orderflow.warehouse;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.rest.client.annotation.ClientHeaderParam;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import io.orderflow.shared.downstream.DownstreamErrors;
import io.quarkus.rest.client.reactive.ClientExceptionMapper;

/**
 * The warehouse's HTTP API (base URL: {@code quarkus.rest-client.warehouse.url}), called with its secret
 * API key, {@code orders.warehouse.api-key}, as {@code Authorization: Bearer <key>}.
 */
@RegisterRestClient(configKey = "warehouse")
@ClientHeaderParam(name = "Authorization", value = "{authorization}", required = false)
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
interface WarehouseClient {

    @POST
    @Path("shipments")
    ShipmentReceipt requestShipment(@HeaderParam("Idempotency-Key") String key, ShipmentRequest request);

    /** No header without a key: the warehouse refuses the call, which says what is missing. */
    default String authorization() {
        return ConfigProvider.getConfig().getOptionalValue("orders.warehouse.api-key", String.class).map(key -> "Bearer " + key)
                .orElse(null);
    }

    @ClientExceptionMapper
    static RuntimeException toException(Response response) {
        return DownstreamErrors.of(response);
    }
}
