package io.orderflow.warehouse;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import io.orderflow.shared.downstream.DownstreamErrors;
import io.quarkus.rest.client.reactive.ClientExceptionMapper;

/** The warehouse's HTTP API (base URL: {@code quarkus.rest-client.warehouse.url}). */
@RegisterRestClient(configKey = "warehouse")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public interface WarehouseClient {

    @POST
    @Path("shipments")
    void requestShipment(@HeaderParam("Idempotency-Key") String key, ShipmentRequest request);

    @ClientExceptionMapper
    static RuntimeException toException(Response response) {
        return DownstreamErrors.of(response);
    }
}
