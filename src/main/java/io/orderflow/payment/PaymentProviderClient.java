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

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.rest.client.annotation.ClientHeaderParam;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import io.orderflow.shared.downstream.DownstreamErrors;
import io.quarkus.rest.client.reactive.ClientExceptionMapper;
import io.smallrye.config.SmallRyeConfig;

/**
 * The payment provider's HTTP API (base URL: {@code quarkus.rest-client.payment-provider.url}), called
 * with its secret API key, {@link PaymentConfig#apiKey()}, as {@code Authorization: Bearer <key>}.
 */
@RegisterRestClient(configKey = "payment-provider")
@ClientHeaderParam(name = "Authorization", value = "{authorization}", required = false)
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
interface PaymentProviderClient {

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

    /** No header without a key: the provider refuses the call, which says what is missing. */
    default String authorization() {
        return ConfigProvider.getConfig().unwrap(SmallRyeConfig.class).getConfigMapping(PaymentConfig.class).apiKey()
                .map(key -> "Bearer " + key).orElse(null);
    }

    @ClientExceptionMapper
    static RuntimeException toException(Response response) {
        return response.getStatus() == 402 ? new PaymentDeclinedException() : DownstreamErrors.of(response);
    }
}
