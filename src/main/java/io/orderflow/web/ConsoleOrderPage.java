package io.orderflow.web;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.order.OrderService;
import io.orderflow.order.OrderView;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;

/**
 * One order in the staff console: its whole story on one timeline, in time order ({@link OrderTimelineStore}), and the
 * actions staff may take now (ship, deliver, cancel with its refund), each a form that is safe to submit twice.
 */
@Path("/console/orders/{id}")
@FormAuthentication
@RolesAllowed(Caller.STAFF)
public class ConsoleOrderPage {

    /** Where the staff console's pages live. */
    static final String CONSOLE = "/console";
    static final String PATH = CONSOLE + "/orders/";

    /** A moment of the story as the page reads it: when, what happened, and its facts. */
    public record Moment(Instant at, String text, List<Fact> facts) {
    }

    /** A fact of a moment: what it is and its value. */
    public record Fact(String name, String value) {
    }

    private final OrderService orders;
    private final OrderTimelineStore timeline;
    private final OrderActions actions;
    private final Pages pages;
    private final PageText text;
    private final SecurityIdentity identity;


    public ConsoleOrderPage(OrderService orders, OrderTimelineStore timeline, OrderActions actions, Pages pages, PageText text,
            SecurityIdentity identity) {
        this.orders = orders;
        this.timeline = timeline;
        this.actions = actions;
        this.pages = pages;
        this.text = text;
        this.identity = identity;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show(@RestPath String id, @RestQuery String notice) {
        return page(200, id, ProblemCode.of(notice).map(code -> text.get("console_notice", code.code())).orElse(""), null);
    }

    @POST
    @Path("{action:ship|deliver|cancel}")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response act(@RestPath String id, @RestPath String action, @RestForm String commandId, @RestForm String confirmed) {
        return actions.act(Caller.of(identity), PATH, this::page, this::missing, id, action, commandId, null, confirmed);
    }

    private Response page(int status, String id, String notice, String confirmCancel) {
        OrderView order;
        try {
            order = orders.get(Caller.of(identity), id);
        } catch (ProblemException notFound) {
            return missing();
        }
        Map<String, Object> data = new HashMap<>();
        data.put("order", order);
        data.put("amount", text.amount(order.totalAmount(), order.currency()));
        data.put("actions", order.allowedActions().stream().filter(action -> action != OrderEvent.PAY)
                .map(action -> new OrderDetailPage.Action(action.wireName(), text.get("action_" + action.wireName()))).toList());
        data.put("commandId", UUID.randomUUID().toString());
        data.put("confirmCancel", confirmCancel);
        data.put("notice", notice);
        data.put("story", timeline.of(order.id()).stream().map(this::moment).toList());
        return pages.page(status, "console-order", data);
    }

    private Moment moment(OrderTimelineStore.Entry entry) {
        Map<String, String> facts = new HashMap<>(entry.facts());
        String said = switch (entry.kind()) {
            case "placed" -> text.get("timeline_placed", take(facts, "customer"), text.amount(take(facts, "amount"), take(facts, "currency")));
            case "transition" -> text.get("timeline_transition", take(facts, "event"), take(facts, "actor"), take(facts, "from"), take(facts, "to"));
            case "payment" -> text.get("timeline_payment", take(facts, "attempt"), take(facts, "status"),
                    text.amount(take(facts, "amount"), take(facts, "currency")));
            case "message" -> text.get("timeline_message", take(facts, "kind"), take(facts, "status"), Long.parseLong(take(facts, "attempts")));
            case "shipment-accepted" -> text.get("timeline_shipmentAccepted", take(facts, "reference"));
            case "refund-settled" -> text.get("timeline_refundSettled", take(facts, "actor"), take(facts, "resolution"));
            case "event-consumed" -> text.get("timeline_eventConsumed", take(facts, "message"));
            case "deadline" -> text.get("timeline_deadline_" + take(facts, "event"));
            default -> throw new IllegalStateException("No words for the timeline's " + entry.kind());
        };
        // What the sentence did not say, in the order the story names it.
        List<Fact> rest = entry.facts().keySet().stream().filter(facts::containsKey)
                .map(name -> new Fact(text.get("timeline_fact_" + name), facts.get(name))).toList();
        return new Moment(entry.at().toInstant(), said, rest);
    }

    private static String take(Map<String, String> facts, String name) {
        String value = facts.remove(name);
        return value == null ? "" : value;
    }

    private Response missing() {
        return pages.page(404, "missing", Map.of());
    }
}
