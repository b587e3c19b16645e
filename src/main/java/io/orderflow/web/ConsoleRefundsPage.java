package io.orderflow.web;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.orderflow.payment.RefusedRefunds;
import io.orderflow.payment.Settlement;
import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;

/**
 * Refunds the provider refused for good, in the staff console: each with the provider's reason and a form to settle it as the
 * API does ({@link RefusedRefunds}): given back outside the engine, or tried again, with a note for the record. Settling
 * one that is no longer refused changes nothing and says where it stands, so the form is safe to submit twice.
 */
@Path(ConsoleRefundsPage.PATH)
@FormAuthentication
@RolesAllowed(Caller.STAFF)
public class ConsoleRefundsPage {

    static final String PATH = ConsoleOrderPage.CONSOLE + "/refunds";
    /** As many as the API lists. */
    private static final int SHOWN = 100;

    /** A resolution as the form offers it. */
    public record Choice(String value, String label) {
    }

    private final RefusedRefunds refused;
    private final Pages pages;
    private final PageText text;
    private final SecurityIdentity identity;

    public ConsoleRefundsPage(RefusedRefunds refused, Pages pages, PageText text, SecurityIdentity identity) {
        this.refused = refused;
        this.pages = pages;
        this.text = text;
        this.identity = identity;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show(@RestQuery Long settled, @RestQuery String state) {
        if (settled == null) {
            return page(200, "");
        }
        if (!RefusedRefunds.STATES.contains(state)) {
            throw new NotFoundException();
        }
        return page(200, text.get("console_refunds_settled_" + state, settled));
    }

    @POST
    @Path("{id}/settle")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response settle(@RestPath long id, @RestForm String resolution, @RestForm String note) {
        Optional<RefusedRefunds.Standing> standing;
        try {
            // An empty note is no note, as the API takes one left out.
            standing = refused.settle(id, new Settlement(resolution, note == null || note.isBlank() ? null : note), Caller.of(identity).name());
        } catch (ProblemException notSettled) {
            return page(notSettled.problem().status(), text.get("console_refunds_notSettled", reasons(notSettled.problem())));
        }
        return standing.map(now -> Response.seeOther(UriBuilder.fromPath(PATH).queryParam("settled", id).queryParam("state", now.state()).build())
                .build()).orElseGet(() -> page(404, text.get("console_refunds_missing", id)));
    }

    /** What the rules said, field by field in the page's language, or the problem's detail. */
    private String reasons(Problem problem) {
        if (problem.listed(Problem.ERRORS, FieldError.class).isEmpty()) {
            return problem.detail();
        }
        Map<String, String> labels = Map.of("resolution", text.get("console_refunds_resolution"), "note", text.get("console_refunds_note"));
        return problem.listed(Problem.ERRORS, FieldError.class).stream()
                .map(error -> labels.getOrDefault(error.field(), error.field()) + ": " + text.rule(error.message()))
                .collect(Collectors.joining("; "));
    }

    private Response page(int status, String notice) {
        Map<String, Object> data = new HashMap<>();
        data.put("refunds", refused.list(SHOWN));
        data.put("resolutions", Arrays.stream(RefusedRefunds.Resolution.values())
                .map(resolution -> new Choice(resolution.wire(), text.get("console_refunds_resolution_" + resolution.wire()))).toList());
        data.put("maxNote", Settlement.MAX_NOTE);
        data.put("notice", notice);
        return pages.page(status, "console-refunds", data);
    }
}
