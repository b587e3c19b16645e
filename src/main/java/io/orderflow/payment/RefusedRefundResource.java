package io.orderflow.payment;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;

import io.orderflow.idempotency.IdempotencyKeys;
import io.orderflow.outbox.OutboxMessage;
import io.orderflow.shared.openapi.ApiDocument;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;

/** Refunds the provider refused for good, for staff: what was refused and why, and a way to settle each. */
@Path("/payments/refunds/refused")
@BasicAuthentication
@RolesAllowed(Caller.STAFF)
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocument.OPERATIONS)
@SecurityRequirement(name = ApiDocument.BASIC)
@SecurityRequirement(name = ApiDocument.BEARER)
public class RefusedRefundResource {

    /** A refund the provider refused for good, with its reason. */
    public record RefusedRefund(long id, String orderId, String refundKey,
            @Schema(description = "The provider's reference of the charge to give back; null for a refund queued before refunds named it")
            String charge,
            @Schema(description = "A decimal string, e.g. \"12.50\"") String amount, String currency,
            @Schema(description = "The provider's refusal as it answered it, e.g. \"The provider refused the call with 400: "
                    + "charge_already_refunded: Charge ch_x has already been refunded.\"") String reason,
            @Schema(description = "When the provider refused it") String refusedAt, int attempts,
            @Schema(enumeration = RefusedRefunds.REFUSED) String state) {
    }

    /** Where a refund stands. */
    public record RefundStanding(long id, String orderId, String refundKey,
            @Schema(enumeration = { RefusedRefunds.REFUSED, RefusedRefunds.PENDING, RefusedRefunds.REFUNDED, RefusedRefunds.REFUNDED_OUTSIDE },
                    description = "`refund-refused`: waits for staff; `pending`: in line to be made; `refunded`: the provider made it; "
                            + "`refunded-outside`: staff settled it as given back outside the engine")
            String state) {
    }

    private final RefusedRefunds refused;
    private final SecurityIdentity identity;

    public RefusedRefundResource(RefusedRefunds refused, SecurityIdentity identity) {
        this.refused = refused;
        this.identity = identity;
    }

    @GET
    @Operation(operationId = "listRefusedRefunds", summary = "Refunds the provider refused for good (staff), the first 100, oldest first")
    @APIResponse(responseCode = "200", description = "The refused refunds",
            content = @Content(schema = @Schema(implementation = RefusedRefund.class, type = SchemaType.ARRAY)))
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    public List<RefusedRefund> list() {
        return refused.list(100).stream().map(RefusedRefundResource::view).toList();
    }

    @POST
    @Path("{id}/settle")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "settleRefusedRefund",
            summary = "Settle a refused refund (staff): given back outside the engine, or tried again; settling one that is no longer "
                    + "refused changes nothing and answers where it stands")
    @Parameter(name = IdempotencyKeys.HEADER, in = ParameterIn.HEADER, description = "Optional: a retry with it answers the first result",
            schema = @Schema(ref = "IdempotencyKey"))
    @APIResponse(responseCode = "200", description = "Where the refund stands now",
            content = @Content(schema = @Schema(implementation = RefundStanding.class)))
    @APIResponse(responseCode = "400", description = "`validation-failed`: resolution not `refunded-outside` or `retry`, note too long; "
            + "`malformed-json`; `idempotency-key-invalid`")
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    @APIResponse(responseCode = "404", description = "`not-found`: no such refund")
    @APIResponse(responseCode = "409", description = "`idempotency-key-in-use`: see Retry-After")
    @APIResponse(responseCode = "422", description = "`idempotency-key-reused` for another request")
    public RefundStanding settle(@RestPath long id, Settlement settlement) {
        return refused.settle(id, settlement, Caller.of(identity).name())
                .map(standing -> new RefundStanding(standing.id(), standing.orderId(), standing.refundKey(), standing.state()))
                .orElseThrow(() -> new ProblemException(Problem.of(ProblemCode.NOT_FOUND, "There is no refund " + id + ".")));
    }

    private static RefusedRefund view(RefusedRefunds.Refused refused) {
        OutboxMessage message = refused.message();
        RefundRequest refund = refused.refund();
        return new RefusedRefund(message.id, message.orderId.toString(), message.idempotencyKey, refund.charge(), refund.amount(),
                refund.currency(), message.lastErrorMessage, message.nextAttemptAt.toString(), message.attempts, RefusedRefunds.REFUSED);
    }
}
