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
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.idempotency.IdempotencyKey;
import io.orderflow.idempotency.IdempotencyKeyRequired;
import io.orderflow.idempotency.IdempotencyKeys;
import io.orderflow.order.OrderResponses;
import io.orderflow.order.OrderView;
import io.orderflow.shared.openapi.ApiDocument;
import io.orderflow.shared.security.Caller;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;

@Path("/orders/{id}/pay")
@BasicAuthentication
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocument.ORDERS)
@SecurityRequirement(name = ApiDocument.BASIC)
@SecurityRequirement(name = ApiDocument.BEARER)
public class PaymentResource {

    private final PaymentService payments;
    private final SecurityIdentity identity;
    private final ObjectMapper json;

    public PaymentResource(PaymentService payments, SecurityIdentity identity, ObjectMapper json) {
        this.payments = payments;
        this.identity = identity;
        this.json = json;
    }

    @POST
    @IdempotencyKeyRequired
    @Operation(operationId = "payOrder",
            summary = "Pay an order: charges the provider once, however often it is retried; needs an Idempotency-Key")
    @APIResponse(responseCode = "200", description = "The paid order; a payment that already happened is marked Idempotent-Replayed: true",
            content = @Content(schema = @Schema(implementation = OrderView.class)))
    @APIResponse(responseCode = "202", description = "The provider needs the customer to authenticate (3-D Secure) at nextAction.url; "
            + "the order stays created and becomes paid when the provider confirms",
            content = @Content(schema = @Schema(implementation = AuthenticationRequired.class)))
    @APIResponse(responseCode = "400", description = "`idempotency-key-missing`, `idempotency-key-invalid`, `validation-failed` "
            + "(paymentMethod), `malformed-json`")
    @APIResponse(responseCode = "402", description = "`payment-declined`: the order stays created and may be paid again")
    @APIResponse(responseCode = "404", description = "`order-not-found`: unknown or not yours")
    @APIResponse(responseCode = "409", description = "`invalid-transition`, with currentStatus and allowedActions; `payment-in-progress` "
            + "or `idempotency-key-in-use`: see Retry-After")
    @APIResponse(responseCode = "422", description = "`idempotency-key-reused` for another request; `payment-method-not-offered`: "
            + "a method outside orders.payments.offered-methods, nothing charged")
    @APIResponse(responseCode = "502", description = "`payment-provider-unavailable` after retries (the order stays created; retry with "
            + "the same Idempotency-Key) or `payment-provider-error`: the provider refused the call, nothing was charged")
    public Response pay(@RestPath String id,
            @Parameter(description = "Required; the same one on every retry", required = true) @RestHeader(IdempotencyKeys.HEADER) IdempotencyKey key,
            @RequestBody(required = false,
                    description = "Optional: how to pay (default pm_card_visa; in the sandbox pm_card_chargeDeclined is declined)",
                    content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PayRequest.class)))
            String body) throws JsonProcessingException {
        // Read here rather than by type: a pay without a body (and without a Content-Type) is the common case.
        PayRequest request = body == null || body.isBlank() ? null : json.readValue(body, PayRequest.class);
        PaymentService.Paying paying = payments.pay(Caller.of(identity), OrderResponses.idOf(id), PayRequest.methodOf(request), key.value());
        if (paying instanceof PaymentService.ActionRequired authenticate) {
            return Response.accepted(new AuthenticationRequired(authenticate.order(), authenticate.nextAction())).build();
        }
        return OrderResponses.ok(((PaymentService.Paid) paying).outcome());
    }
}
