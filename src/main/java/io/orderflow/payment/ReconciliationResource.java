package io.orderflow.payment;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.orderflow.idempotency.IdempotencyKeys;
import io.orderflow.shared.openapi.ApiDocument;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;

/** Reconciliation of the provider's charges with our payments, for staff: run it now, or see the last report. */
@Path("/payments/reconciliation")
@BasicAuthentication
@RolesAllowed(Caller.STAFF)
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocument.OPERATIONS)
@SecurityRequirement(name = ApiDocument.BASIC)
@SecurityRequirement(name = ApiDocument.BEARER)
public class ReconciliationResource {

    private final PaymentReconciliation reconciliation;

    public ReconciliationResource(PaymentReconciliation reconciliation) {
        this.reconciliation = reconciliation;
    }

    @GET
    @Operation(operationId = "getReconciliationReport", summary = "The last reconciliation report, of any instance (staff)")
    @APIResponse(responseCode = "200", description = "The report",
            content = @Content(schema = @Schema(implementation = ReconciliationReport.class)))
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    @APIResponse(responseCode = "404", description = "`reconciliation-not-run`: no run has finished yet")
    public ReconciliationReport latest() {
        return reconciliation.latest().orElseThrow(() -> new ProblemException(Problem.of(ProblemCode.RECONCILIATION_NOT_RUN, "No reconciliation has run yet; POST to this address to run one.")));
    }

    @POST
    @Operation(operationId = "runReconciliation",
            summary = "Reconcile the provider's charges of the configured window now, refunding what matches no paid order (staff)")
    @Parameter(name = IdempotencyKeys.HEADER, in = ParameterIn.HEADER, description = "Optional: a retry with it answers the first report",
            schema = @Schema(ref = "IdempotencyKey"))
    @APIResponse(responseCode = "200", description = "The report",
            content = @Content(schema = @Schema(implementation = ReconciliationReport.class)))
    @APIResponse(responseCode = "400", description = "`idempotency-key-invalid`")
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    @APIResponse(responseCode = "409", description = "`idempotency-key-in-use`: see Retry-After")
    @APIResponse(responseCode = "422", description = "`idempotency-key-reused` for another request")
    @APIResponse(responseCode = "502", description = "`payment-provider-unavailable`: the provider's charges could not be read; retry")
    public ReconciliationReport run() {
        return reconciliation.run();
    }
}
