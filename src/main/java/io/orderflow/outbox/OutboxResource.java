package io.orderflow.outbox;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestPath;

import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;

/** Dead letters of the outbox, for staff: what gave up, why, and a way to try again. */
@Path("/outbox/dead-letters")
@BasicAuthentication
@RolesAllowed(Caller.STAFF)
@Produces(MediaType.APPLICATION_JSON)
public class OutboxResource {

    /** A message that gave up after its attempts, with why its last attempt failed. */
    public record DeadLetter(long id, String kind, String orderId, String key, int attempts, DeliveryError lastError, String createdAt) {
    }

    private final Outbox outbox;

    public OutboxResource(Outbox outbox) {
        this.outbox = outbox;
    }

    @GET
    @Operation(summary = "Outbox messages that gave up (staff)")
    public List<DeadLetter> list() {
        return outbox.deadLetters(100).stream()
                .map(m -> new DeadLetter(m.id, m.kind, m.orderId.toString(), m.idempotencyKey, m.attempts, DeliveryError.recorded(m),
                        m.createdAt.toString()))
                .toList();
    }

    @POST
    @Path("{id}/retry")
    @Operation(summary = "Put a dead letter back in line with fresh attempts (staff)")
    public void retry(@RestPath long id) {
        if (!outbox.retry(id)) {
            throw new ProblemException(Problem.of(404, "not-found", "Not found", "There is no dead letter " + id + "."));
        }
    }
}
