package io.orderflow.payment;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;

/** Reconciliation of the provider's charges with our payments, for staff: run it now, or see the last report. */
@Path("/payments/reconciliation")
@BasicAuthentication
@RolesAllowed(Caller.STAFF)
@Produces(MediaType.APPLICATION_JSON)
public class ReconciliationResource {

    private final PaymentReconciliation reconciliation;

    public ReconciliationResource(PaymentReconciliation reconciliation) {
        this.reconciliation = reconciliation;
    }

    @GET
    @Operation(summary = "The last reconciliation report, of any instance (staff)")
    @APIResponse(responseCode = "404", description = "reconciliation-not-run: no run has finished yet")
    public ReconciliationReport latest() {
        return reconciliation.latest().orElseThrow(() -> new ProblemException(Problem.of(404, "reconciliation-not-run",
                "No reconciliation yet", "No reconciliation has run yet; POST to this address to run one.")));
    }

    @POST
    @Operation(summary = "Reconcile the provider's charges of the configured window now, refunding what matches no paid order (staff)")
    public ReconciliationReport run() {
        return reconciliation.run();
    }
}
