package io.orderflow.web;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
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

import io.orderflow.outbox.OutboxDelivery;
import io.orderflow.shared.security.Caller;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;

/**
 * The outbox's dead letters in the staff console: what gave up, on which order, after how many attempts and why, with a
 * form to put one back in line and one to put back all that the page showed (never one that appeared since). Each is safe
 * to submit twice: an id that is no longer a dead letter is left alone, and the page says so.
 */
@Path(ConsoleDeadLettersPage.PATH)
@FormAuthentication
@RolesAllowed(Caller.STAFF)
public class ConsoleDeadLettersPage {

    static final String PATH = ConsoleOrderPage.CONSOLE + "/dead-letters";
    /** As many as the API lists; a form that names more did not come from this page. */
    private static final int SHOWN = 100;

    private final OutboxDelivery delivery;
    private final Pages pages;
    private final PageText text;

    public ConsoleDeadLettersPage(OutboxDelivery delivery, Pages pages, PageText text) {
        this.delivery = delivery;
        this.pages = pages;
        this.text = text;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show(@RestQuery Long retried, @RestQuery Long notRetried, @RestQuery Integer retriedShown, @RestQuery Integer shown) {
        String notice = "";
        if (retried != null) {
            notice = text.get("console_deadLetters_retried", retried);
        } else if (notRetried != null) {
            notice = text.get("console_deadLetters_notRetried", notRetried);
        } else if (retriedShown != null && shown != null) {
            notice = text.get("console_deadLetters_retriedShown", retriedShown, shown);
        }
        return page(200, notice);
    }

    @POST
    @Path("{id}/retry")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response retry(@RestPath long id) {
        boolean retried = delivery.retry(List.of(id)) == 1;
        return Response.seeOther(UriBuilder.fromPath(PATH).queryParam(retried ? "retried" : "notRetried", id).build()).build();
    }

    @POST
    @Path("retry")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response retryShown(@RestForm("id") List<String> ids) {
        Set<Long> shown = new LinkedHashSet<>();
        try {
            for (String id : Objects.requireNonNullElse(ids, List.<String>of())) {
                shown.add(Long.valueOf(id));
            }
        } catch (NumberFormatException notAnId) {
            return page(400, text.get("console_deadLetters_notShown"));
        }
        if (shown.size() > SHOWN) {
            return page(400, text.get("console_deadLetters_notShown"));
        }
        int retried = delivery.retry(shown);
        return Response.seeOther(UriBuilder.fromPath(PATH).queryParam("retriedShown", retried).queryParam("shown", shown.size()).build())
                .build();
    }

    private Response page(int status, String notice) {
        Map<String, Object> data = new HashMap<>();
        data.put("letters", delivery.deadLetters(SHOWN));
        data.put("notice", notice);
        return pages.page(status, "console-dead-letters", data);
    }
}
