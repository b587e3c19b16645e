package io.orderflow.sandbox;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
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

    /** What the providers are sent: the order, and for money calls an amount. */
    public record Call(UUID orderId, BigDecimal amount, String currency, List<Map<String, Object>> items) {
    }

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
    @Operation(summary = "Sandbox: charge an amount, once per Idempotency-Key; amounts ending in .51 are declined")
    public Response charge(@RestHeader("Idempotency-Key") String key, Call call) {
        return handle(Kind.CHARGE, key, call);
    }

    @GET
    @Path("payments/charges/{key}")
    @PermitAll
    @Operation(summary = "Sandbox: the charge made with an Idempotency-Key, or 404")
    public Response findCharge(@RestPath String key) {
        requireEnabled();
        return providers.find(Kind.CHARGE, key).map(charge -> Response.ok(charge).build())
                .orElseGet(() -> Response.status(404).entity(Map.of("status", "unknown")).build());
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
            return Response.status(400).entity(Map.of("status", "rejected", "reason", "Idempotency-Key and orderId are required")).build();
        }
        if (providers.failsNow()) {
            providers.recordCall(kind, key, call.orderId(), 503, arrived);
            return Response.status(503).entity(Map.of("status", "unavailable")).build();
        }
        SandboxProviders.Answer answer = providers.perform(kind, key, call.orderId(), call.amount(), call.currency());
        providers.recordCall(kind, key, call.orderId(), answer.status(), arrived);
        return Response.status(answer.status()).entity(answer.body()).build();
    }

    private void requireEnabled() {
        if (!config.enabled()) {
            throw new ProblemException(Problem.of(404, "not-found", "Not found", "There is nothing at this address."));
        }
    }
}
