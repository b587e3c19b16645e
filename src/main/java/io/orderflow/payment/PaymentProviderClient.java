package io.orderflow.payment;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import io.orderflow.shared.downstream.DownstreamErrors;
import io.quarkus.rest.client.reactive.ClientExceptionMapper;

/** The payment provider's HTTP API (base URL: {@code quarkus.rest-client.payment-provider.url}). */
@RegisterRestClient(configKey = "payment-provider")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public interface PaymentProviderClient {

    @POST
    @Path("charges")
    ProviderReceipt charge(@HeaderParam("Idempotency-Key") String key, MoneyCall call);

    @GET
    @Path("charges/{key}")
    ProviderReceipt findCharge(@PathParam("key") String key);

    @POST
    @Path("refunds")
    ProviderReceipt refund(@HeaderParam("Idempotency-Key") String key, MoneyCall call);

    @ClientExceptionMapper
    static RuntimeException toException(Response response) {
        return response.getStatus() == 402 ? new PaymentDeclinedException() : DownstreamErrors.of(response);
    }
}
