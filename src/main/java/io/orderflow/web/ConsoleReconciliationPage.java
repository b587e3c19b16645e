package io.orderflow.web;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestQuery;

import io.orderflow.payment.PaymentReconciliation;
import io.orderflow.payment.ReconciliationReport;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;

/**
 * Reconciliation in the staff console: the newest report in full (its window, what it counted, and each charge nothing
 * accounts for with its kind and what was done about it), the runs before it in short, and a form to run one now.
 * Running twice is harmless: the refunds a run queues are keyed, and the next run sees them queued.
 */
@Path(ConsoleReconciliationPage.PATH)
@FormAuthentication
@RolesAllowed(Caller.STAFF)
public class ConsoleReconciliationPage {

    static final String PATH = ConsoleOrderPage.CONSOLE + "/reconciliation";
    /** The newest report and the runs before it that the page lists. */
    private static final int RECENT = 10;

    private final PaymentReconciliation reconciliation;
    private final Pages pages;
    private final PageText text;

    public ConsoleReconciliationPage(PaymentReconciliation reconciliation, Pages pages, PageText text) {
        this.reconciliation = reconciliation;
        this.pages = pages;
        this.text = text;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show(@RestQuery boolean ran, @RestQuery String notice) {
        String said = ran ? text.get("console_reconciliation_ran")
                : ProblemCode.of(notice).map(code -> text.get("console_reconciliation_notRun", code.code())).orElse("");
        List<ReconciliationReport> reports = reconciliation.recent(RECENT);
        Map<String, Object> data = new HashMap<>();
        data.put("latest", reports.isEmpty() ? null : reports.get(0));
        data.put("earlier", reports.isEmpty() ? List.of() : reports.subList(1, reports.size()));
        data.put("notice", said);
        return pages.page(200, "console-reconciliation", data);
    }

    @POST
    @Path("run")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response run() {
        UriBuilder back = UriBuilder.fromPath(PATH);
        try {
            reconciliation.run();
            back.queryParam("ran", true);
        } catch (ProblemException notRun) {
            back.queryParam("notice", notRun.problem().code());
        }
        return Response.seeOther(back.build()).build();
    }
}
