package io.orderflow.sandbox;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.orderflow.idempotency.KeysOfItsOwn;
import io.orderflow.sandbox.SandboxProviders.Call;
import io.orderflow.sandbox.SandboxProviders.Kind;
import io.orderflow.shared.http.QueryParameters;
import io.orderflow.shared.openapi.ApiDocument;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;

/**
 * Sandbox payment provider and warehouse, served by the app itself in dev, test and demo. Like
 * third-party APIs they take their own secret API key ({@code orders.sandbox.api-key}, which the app's
 * REST clients send; see {@link SandboxKeyMechanism}), and staff may call them too; never an anonymous
 * caller or a customer, since a demo is open to the internet. The ledger is for staff. Their answers are
 * the provider's JSON, not problem details.
 */
@Path("/sandbox")
@BasicAuthentication
@KeysOfItsOwn
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocument.SANDBOX)
@SecurityRequirement(name = ApiDocument.BASIC)
@SecurityRequirement(name = ApiDocument.BEARER)
@SecurityRequirement(name = ApiDocument.SANDBOX_KEY)
@APIResponse(responseCode = "404", description = "`not-found`: the sandbox is off (outside dev, test and demo)")
public class SandboxResource {

    /** The role of a caller with the sandbox's API key: the app's own REST clients. */
    public static final String CLIENT = "sandbox-client";

    private static final int DEFAULT_CHARGES_PER_PAGE = 100;
    private static final int MAX_CHARGES_PER_PAGE = 1000;

    private final SandboxProviders providers;
    private final SandboxConfig config;

    public SandboxResource(SandboxProviders providers, SandboxConfig config) {
        this.providers = providers;
        this.config = config;
    }

    @POST
    @Path("payments/charges")
    @RolesAllowed({ Caller.STAFF, CLIENT })
    @APIResponse(responseCode = "403", description = "`forbidden`: neither staff nor the sandbox's API key")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "sandboxCharge",
            summary = "Sandbox: charge an amount, once per Idempotency-Key; pm_card_chargeDeclined and amounts ending in .51 are declined")
    @APIResponse(responseCode = "201", description = "The charge, or the first result under the key",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "400", description = "{\"status\":\"rejected\"}: no Idempotency-Key or orderId",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "402", description = "{\"status\":\"declined\"}, remembered under the key",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "409", description = "{\"status\":\"processing\"}: a call with the key is still running",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "410", description = "{\"status\":\"voided\"}: the key was voided",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "503", description = "{\"status\":\"unavailable\"}: the configured failure rate; nothing was done",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    public Response charge(@Parameter(required = true) @RestHeader("Idempotency-Key") String key, Call call) {
        return handle(Kind.CHARGE, key, call);
    }

    @GET
    @Path("payments/charges/{key}")
    @RolesAllowed({ Caller.STAFF, CLIENT })
    @APIResponse(responseCode = "403", description = "`forbidden`: neither staff nor the sandbox's API key")
    @Operation(operationId = "sandboxFindCharge",
            summary = "Sandbox: what became of the charge with an Idempotency-Key (succeeded, declined, voided, processing), or 404")
    @APIResponse(responseCode = "200", description = "The charge under the key",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "404", description = "{\"status\":\"unknown\"}: no call used the key; `not-found`: the sandbox is off",
            content = { @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.OBJECT)),
                    @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = ApiDocument.PROBLEM)) })
    public Response findCharge(@RestPath String key) {
        requireEnabled();
        return providers.find(Kind.CHARGE, key).map(charge -> Response.ok(charge).build())
                .orElseGet(() -> Response.status(404).entity(Map.of("status", "unknown")).build());
    }

    @POST
    @Path("payments/charges/{key}/void")
    @RolesAllowed({ Caller.STAFF, CLIENT })
    @APIResponse(responseCode = "403", description = "`forbidden`: neither staff nor the sandbox's API key")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "sandboxVoidCharge",
            summary = "Sandbox: void a charge key so that it can never charge; a decided key answers its result, one processing 409")
    @APIResponse(responseCode = "200", description = "The voided key, or the result it was decided with",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "400", description = "{\"status\":\"rejected\"}: no orderId",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "409", description = "{\"status\":\"processing\"}: a call with the key is still running",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
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
    @RolesAllowed({ Caller.STAFF, CLIENT })
    @APIResponse(responseCode = "403", description = "`forbidden`: neither staff nor the sandbox's API key")
    @Operation(operationId = "sandboxListCharges",
            summary = "Sandbox: the charges made in a time window [since, until), oldest first, paged by the cursor in next")
    @APIResponse(responseCode = "200", description = "{\"items\":[...],\"next\":cursor-or-null}",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "400", description = "`validation-failed`, naming the parameter: since missing, an instant unreadable "
            + "or beyond what PostgreSQL stores (4714 BC to 294276 AD), after not a cursor, limit not 1 to 1000")
    public Response charges(
            @Parameter(required = true, description = "The window's start, an ISO-8601 instant",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time")) @RestQuery String since,
            @Parameter(description = "The window's end, an ISO-8601 instant; by default now",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time")) @RestQuery String until,
            @Parameter(description = "The next cursor of the previous page") @RestQuery String after,
            @Parameter(description = "Page size, 1 to 1000 (default 100)",
                    schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "1000")) @RestQuery String limit) {
        requireEnabled();
        Instant from = QueryParameters.instant("since", since);
        if (from == null) {
            throw QueryParameters.invalid("since", "is required");
        }
        Instant to = Objects.requireNonNullElseGet(QueryParameters.instant("until", until), Instant::now);
        long cursor = QueryParameters.wholeNumber("after", after, 0, Long.MAX_VALUE, 0);
        int size = (int) QueryParameters.wholeNumber("limit", limit, 1, MAX_CHARGES_PER_PAGE, DEFAULT_CHARGES_PER_PAGE);
        return Response.ok(providers.charges(from, to, cursor, size)).build();
    }

    @POST
    @Path("payments/refunds")
    @RolesAllowed({ Caller.STAFF, CLIENT })
    @APIResponse(responseCode = "403", description = "`forbidden`: neither staff nor the sandbox's API key")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "sandboxRefund", summary = "Sandbox: refund, once per Idempotency-Key")
    @APIResponse(responseCode = "201", description = "The refund, or the first result under the key",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "400", description = "{\"status\":\"rejected\"}: no Idempotency-Key, orderId or charge",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "409", description = "{\"status\":\"processing\"}: a call with the key is still running",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "503", description = "{\"status\":\"unavailable\"}: the configured failure rate; nothing was done",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    public Response refund(@Parameter(required = true) @RestHeader("Idempotency-Key") String key, Call call) {
        return handle(Kind.REFUND, key, call);
    }

    @POST
    @Path("warehouse/shipments")
    @RolesAllowed({ Caller.STAFF, CLIENT })
    @APIResponse(responseCode = "403", description = "`forbidden`: neither staff nor the sandbox's API key")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "sandboxShip", summary = "Sandbox: request a shipment, once per Idempotency-Key")
    @APIResponse(responseCode = "201", description = "The shipment, or the first result under the key",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "400", description = "{\"status\":\"rejected\"}: no Idempotency-Key or orderId",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "409", description = "{\"status\":\"processing\"}: a call with the key is still running",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "503", description = "{\"status\":\"unavailable\"}: the configured failure rate; nothing was done",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    public Response ship(@Parameter(required = true) @RestHeader("Idempotency-Key") String key, Call call) {
        return handle(Kind.SHIPMENT, key, call);
    }

    @GET
    @Path("ledger")
    @RolesAllowed(Caller.STAFF)
    @Operation(operationId = "sandboxLedger",
            summary = "Sandbox: the charges, refunds and shipments made for an order, and the calls that arrived")
    @SecurityRequirement(name = ApiDocument.BASIC)
    @SecurityRequirement(name = ApiDocument.BEARER)
    @APIResponse(responseCode = "200", description = "What the providers did for the order",
            content = @Content(schema = @Schema(implementation = SandboxLedger.class)))
    @APIResponse(responseCode = "400", description = "`validation-failed`: orderId is not an order id")
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    public SandboxLedger ledger(@RestQuery String orderId) {
        requireEnabled();
        try {
            return providers.ledger(UUID.fromString(orderId == null ? "" : orderId));
        } catch (IllegalArgumentException e) {
            throw QueryParameters.invalid("orderId", "must be an order id");
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
            throw new ProblemException(Problem.of(ProblemCode.NOT_FOUND, "There is nothing at this address."));
        }
    }
}
