package io.orderflow.web;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

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
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.order.OrderService;
import io.orderflow.order.OrderView;
import io.orderflow.payment.PaymentConfig;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;

/**
 * An order's page: status, items, history and the actions allowed now, each a form with its own
 * command id. Acting twice is harmless: a transition that already happened counts as done.
 */
@Path("/checkout/orders/{id}")
@FormAuthentication
@Authenticated
public class OrderDetailPage {

    static final String PATH = "/checkout/orders/";

    /** What the page may say after an action, by the outcome's code (its words are {@code notice.<code>}); anything else says nothing. */
    private static final Set<ProblemCode> NOTICES = EnumSet.of(ProblemCode.PAYMENT_DECLINED, ProblemCode.PAYMENT_PROVIDER_UNAVAILABLE,
            ProblemCode.PAYMENT_IN_PROGRESS, ProblemCode.INVALID_TRANSITION, ProblemCode.FORBIDDEN, ProblemCode.VALIDATION_FAILED,
            ProblemCode.PAYMENT_METHOD_NOT_OFFERED, ProblemCode.PAYMENT_PROVIDER_ERROR);

    /** A payment method the page offers: its id and how it reads. */
    public record PaymentChoice(String id, String name) {
    }

    /** A button of the page: the action and how it reads. */
    public record Action(String name, String label) {
    }

    /** A step of the order's history as the page reads it, and when it happened. */
    public record Step(String text, Instant at) {
    }

    private final OrderService orders;
    private final OrderActions actions;
    private final PaymentConfig paymentConfig;
    private final Pages pages;
    private final PageText text;
    private final PageLocale locale;
    private final SecurityIdentity identity;

    public OrderDetailPage(OrderService orders, OrderActions actions, PaymentConfig paymentConfig, Pages pages, PageText text, PageLocale locale,
            SecurityIdentity identity) {
        this.pages = pages;
        this.text = text;
        this.locale = locale;
        this.orders = orders;
        this.actions = actions;
        this.paymentConfig = paymentConfig;
        this.identity = identity;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show(@RestPath String id, @RestQuery String notice) {
        return page(200, id, ProblemCode.of(notice).filter(NOTICES::contains).map(code -> text.get("notice_" + code.code())).orElse(""), null);
    }

    /** The order's page; with {@code confirmCancel}, a cancellation's command id, it asks to confirm that cancellation. */
    private Response page(int status, String id, String notice, String confirmCancel) {
        try {
            OrderView order = orders.get(Caller.of(identity), id);
            List<Action> actions = order.allowedActions().stream()
                    .map(action -> new Action(action.wireName(), text.get("action_" + action.wireName())))
                    .toList();
            Map<String, Object> data = new HashMap<>();
            data.put("order", order);
            data.put("staff", Caller.of(identity).staff());
            data.put("countryName", order.shippingAddress() == null ? "" : AddressForm.countryName(order.shippingAddress().country(), locale.locale()));
            data.put("history", order.history().stream().map(step -> new Step(text.get("order_history_step", text.get("event_" + step.event()),
                    text.get("actor_" + step.actor()), text.get("status_" + step.from().wireName()), text.get("status_" + step.to().wireName())),
                    step.at())).toList());
            data.put("actions", actions);
            data.put("amount", text.amount(order.totalAmount(), order.currency()));
            // A paid order's page is its receipt: what was paid and when, beside its items and where they go.
            data.put("paidAt", order.history().stream().filter(step -> step.to() == OrderStatus.PAID).map(OrderView.Step::at).findFirst()
                    .filter(paid -> order.status() != OrderStatus.CANCELLED).orElse(null));
            data.put("shipment", order.shipment() == null ? null : order.shipment().reference() == null ? text.get("order_shipment_requested")
                    : text.get("order_shipment_accepted", order.shipment().reference()));
            data.put("refund", order.refund() == null ? null : text.get("order_refund_" + order.refund().state(),
                    text.amount(order.refund().amount(), order.refund().currency()), Objects.requireNonNullElse(order.refund().reason(), "")));
            data.put("commandId", UUID.randomUUID().toString());
            data.put("paymentMethods", paymentConfig.offeredMethods().size() < 2 ? List.of() : paymentConfig.offeredMethods().stream()
                    .map(method -> new PaymentChoice(method, paymentConfig.methodNames().getOrDefault(method, method))).toList());
            data.put("notice", notice);
            data.put("confirmCancel", confirmCancel);
            data.put("timeLeft", order.payBy() == null ? "" : timeLeft(Duration.between(Instant.now(), order.payBy())));
            data.put("expired", order.history().stream().anyMatch(step -> step.event().equals(OrderEvent.EXPIRE.wireName())));
            return pages.page(status, "order", data);
        } catch (ProblemException notFound) {
            return missing();
        }
    }

    /** "about 29 minutes", "about 1 minute", "less than a minute": a deadline as people read it. */
    String timeLeft(Duration left) {
        long minutes = left.toMinutes();
        return minutes < 1 ? text.get("order_timeLeft_underAMinute") : text.get("order_timeLeft_minutes", minutes);
    }

    @POST
    @Path("{action:pay|ship|deliver|cancel}")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response act(@RestPath String id, @RestPath String action, @RestForm String commandId, @RestForm String paymentMethod,
            @RestForm String confirmed) {
        return actions.act(Caller.of(identity), PATH, this::page, this::missing, id, action, commandId, paymentMethod, confirmed);
    }


    private Response missing() {
        return pages.page(404, "missing", Map.of());
    }
}
