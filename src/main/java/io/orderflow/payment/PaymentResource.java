package io.orderflow.payment;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;

import io.orderflow.idempotency.IdempotencyKey;
import io.orderflow.idempotency.IdempotencyKeyRequired;
import io.orderflow.idempotency.IdempotencyKeys;
import io.orderflow.order.OrderAnswers;
import io.orderflow.order.OrderView;
import io.orderflow.shared.security.Caller;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;

@Path("/orders/{id}/pay")
@BasicAuthentication
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class PaymentResource {

    private final PaymentService payments;
    private final SecurityIdentity identity;

    public PaymentResource(PaymentService payments, SecurityIdentity identity) {
        this.payments = payments;
        this.identity = identity;
    }

    @POST
    @IdempotencyKeyRequired
    @Operation(summary = "Pay an order: charges the provider once, however often it is retried; needs an Idempotency-Key")
    @APIResponse(responseCode = "200", description = "The paid order",
            content = @Content(schema = @Schema(implementation = OrderView.class)))
    @APIResponse(responseCode = "400", description = "idempotency-key-missing or idempotency-key-invalid")
    @APIResponse(responseCode = "402", description = "payment-declined: the order stays created and may be paid again")
    @APIResponse(responseCode = "409", description = "invalid-transition, payment-in-progress or idempotency-key-in-use")
    @APIResponse(responseCode = "502", description = "payment-provider-unavailable after retries: the order stays created; retry")
    public Response pay(@RestPath String id,
            @Parameter(description = "Required; the same one on every retry", required = true) @RestHeader(IdempotencyKeys.HEADER) IdempotencyKey key) {
        return OrderAnswers.ok(payments.pay(Caller.of(identity), OrderAnswers.idOf(id), key.value()));
    }
}
