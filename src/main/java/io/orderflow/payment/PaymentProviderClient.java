package io.orderflow.payment;

import java.util.UUID;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
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
    ProviderCharge charge(@HeaderParam("Idempotency-Key") String key, ChargeRequest call);

    /** What became of a charge key; 404 when the provider never saw it. */
    @GET
    @Path("charges/{key}")
    ProviderCharge findCharge(@PathParam("key") String key);

    /** Makes a key unable to charge, or answers what it did; 409 while a call with it is processing. */
    @POST
    @Path("charges/{key}/void")
    ProviderCharge voidCharge(@PathParam("key") String key, VoidRequest call);

    @GET
    @Path("charges")
    ChargePage charges(@QueryParam("since") String since, @QueryParam("until") String until, @QueryParam("after") String after,
            @QueryParam("limit") int limit);

    @POST
    @Path("refunds")
    void refund(@HeaderParam("Idempotency-Key") String key, RefundRequest call);

    /** The order a voided key belonged to. */
    record VoidRequest(UUID orderId) {
    }

    @ClientExceptionMapper
    static RuntimeException toException(Response response) {
        return response.getStatus() == 402 ? new PaymentDeclinedException() : DownstreamErrors.of(response);
    }
}
