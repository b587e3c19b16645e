package io.orderflow.outbox;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
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
import io.orderflow.shared.openapi.ApiDocument;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;

/** Dead letters of the outbox, for staff: what gave up, why, and a way to try again. */
@Path("/outbox/dead-letters")
@BasicAuthentication
@RolesAllowed(Caller.STAFF)
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocument.OPERATIONS)
@SecurityRequirement(name = ApiDocument.BASIC)
@SecurityRequirement(name = ApiDocument.BEARER)
public class OutboxResource {

    /** A message that gave up after its attempts, with why its last attempt failed. */
    public record DeadLetter(long id, String kind, String orderId, String key, int attempts, DeliveryError lastError, String createdAt) {
    }

    private final OutboxDelivery delivery;

    public OutboxResource(OutboxDelivery delivery) {
        this.delivery = delivery;
    }

    @GET
    @Operation(operationId = "listDeadLetters", summary = "Outbox messages that gave up (staff), the first 100")
    @APIResponse(responseCode = "200", description = "The dead letters",
            content = @Content(schema = @Schema(implementation = DeadLetter.class, type = SchemaType.ARRAY)))
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    public List<DeadLetter> list() {
        return delivery.deadLetters(100).stream()
                .map(m -> new DeadLetter(m.id, m.kind, m.orderId.toString(), m.idempotencyKey, m.attempts, DeliveryError.recorded(m),
                        m.createdAt.toString()))
                .toList();
    }

    @POST
    @Path("{id}/retry")
    @Operation(operationId = "retryDeadLetter", summary = "Put a dead letter back in line with fresh attempts (staff)")
    @Parameter(name = IdempotencyKeys.HEADER, in = ParameterIn.HEADER, description = "Optional: a retry with it answers the first result",
            schema = @Schema(ref = "IdempotencyKey"))
    @APIResponse(responseCode = "204", description = "Back in line")
    @APIResponse(responseCode = "400", description = "`idempotency-key-invalid`")
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    @APIResponse(responseCode = "404", description = "`not-found`: no such dead letter")
    @APIResponse(responseCode = "409", description = "`idempotency-key-in-use`: see Retry-After")
    @APIResponse(responseCode = "422", description = "`idempotency-key-reused` for another request")
    public void retry(@RestPath long id) {
        if (delivery.retry(List.of(id)) == 0) {
            throw new ProblemException(Problem.of(ProblemCode.NOT_FOUND, "There is no dead letter " + id + "."));
        }
    }
}
