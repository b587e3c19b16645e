package io.orderflow.sandbox;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.UUID;

import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.orderflow.sandbox.SandboxProviders.Call;
import io.orderflow.sandbox.SandboxProviders.Kind;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;

/**
 * Sandbox payment provider and warehouse, served by the app itself in dev, test and demo.
 * Like third-party APIs they need no user of ours; the ledger is for staff.
 */
@Path("/sandbox")
@BasicAuthentication
@Produces(MediaType.APPLICATION_JSON)
public class SandboxResource {

    private final SandboxProviders providers;
    private final SandboxConfig config;

    public SandboxResource(SandboxProviders providers, SandboxConfig config) {
        this.providers = providers;
        this.config = config;
    }

    @POST
    @Path("payments/charges")
    @PermitAll
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Sandbox: charge an amount, once per Idempotency-Key; pm_card_chargeDeclined and amounts ending in .51 are declined")
    public Response charge(@RestHeader("Idempotency-Key") String key, Call call) {
        return handle(Kind.CHARGE, key, call);
    }

    @GET
    @Path("payments/charges/{key}")
    @PermitAll
    @Operation(summary = "Sandbox: what became of the charge with an Idempotency-Key (succeeded, declined, voided, processing), or 404")
    public Response findCharge(@RestPath String key) {
        requireEnabled();
        return providers.find(Kind.CHARGE, key).map(charge -> Response.ok(charge).build())
                .orElseGet(() -> Response.status(404).entity(Map.of("status", "unknown")).build());
    }

    @POST
    @Path("payments/charges/{key}/void")
    @PermitAll
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Sandbox: void a charge key so that it can never charge; a decided key answers its result, one processing 409")
    public Response voidCharge(@RestPath String key, Call call) {
        requireEnabled();
        if (call == null || call.orderId() == null) {
            return rejected("orderId is required");
        }
        SandboxProviders.Answer answer = providers.voidCharge(key, call.orderId());
        return Response.status(answer.status()).entity(answer.body()).build();
    }

    @GET
    @Path("payments/charges")
    @PermitAll
    @Operation(summary = "Sandbox: the charges made in a time window [since, until), oldest first, paged by the cursor in next")
    public Response charges(@RestQuery String since, @RestQuery String until, @RestQuery String after, @RestQuery Integer limit) {
        requireEnabled();
        if (since == null) {
            return rejected("since is required");
        }
        try {
            Instant from = Instant.parse(since);
            Instant to = until == null ? Instant.now() : Instant.parse(until);
            int size = limit == null ? 100 : limit;
            if (size < 1 || size > 1000) {
                return rejected("limit is 1 to 1000");
            }
            return Response.ok(providers.charges(from, to, after == null ? 0 : Long.parseLong(after), size)).build();
        } catch (DateTimeParseException | NumberFormatException e) {
            return rejected("since (and until) are ISO-8601 instants such as 2026-01-31T00:00:00Z, after is a cursor from next");
        }
    }

    @POST
    @Path("payments/refunds")
    @PermitAll
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Sandbox: refund, once per Idempotency-Key")
    public Response refund(@RestHeader("Idempotency-Key") String key, Call call) {
        return handle(Kind.REFUND, key, call);
    }

    @POST
    @Path("warehouse/shipments")
    @PermitAll
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Sandbox: request a shipment, once per Idempotency-Key")
    public Response ship(@RestHeader("Idempotency-Key") String key, Call call) {
        return handle(Kind.SHIPMENT, key, call);
    }

    @GET
    @Path("ledger")
    @RolesAllowed(Caller.STAFF)
    @Operation(summary = "Sandbox: the charges, refunds and shipments made for an order, and the calls that arrived")
    public SandboxLedger ledger(@RestQuery String orderId) {
        requireEnabled();
        try {
            return providers.ledger(UUID.fromString(orderId == null ? "" : orderId));
        } catch (IllegalArgumentException e) {
            throw new ProblemException(Problem.of(400, "validation-failed", "Invalid request", "orderId must be an order id."));
        }
    }

    private Response handle(Kind kind, String key, Call call) {
        requireEnabled();
        Instant arrived = Instant.now();
        if (key == null || key.isBlank() || call == null || call.orderId() == null) {
            return rejected("Idempotency-Key and orderId are required");
        }
        if (kind == Kind.REFUND && call.charge() == null) {
            return rejected("a refund names the charge it gives back");
        }
        SandboxProviders.Answer answer = providers.perform(kind, key, call);
        providers.recordCall(kind, key, call.orderId(), answer.status(), arrived);
        return Response.status(answer.status()).entity(answer.body()).build();
    }

    private static Response rejected(String reason) {
        return Response.status(400).entity(Map.of("status", "rejected", "reason", reason)).build();
    }

    private void requireEnabled() {
        if (!config.enabled()) {
            throw new ProblemException(Problem.of(404, "not-found", "Not found", "There is nothing at this address."));
        }
    }
}
