package io.orderflow.web;

import java.net.URI;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;

import io.orderflow.idempotency.IdempotencyKey;
import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.order.OrderTransitions;
import io.orderflow.payment.PayRequest;
import io.orderflow.payment.PaymentService;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;

/**
 * An order's action as a page's form posts it (pay, ship, deliver, cancel), checked, done and answered, for the checkout's
 * order page and the console's. Acting twice is harmless: the form carries its command id, and a transition that already
 * happened counts as done.
 */
@ApplicationScoped
public class OrderActions {

    /** The value of the confirmation form's {@code confirmed} field. */
    private static final String CONFIRMED = "yes";

    /** A page that shows an order again after an action: with a notice, or asking to confirm a cancellation. */
    @FunctionalInterface
    public interface OrderShown {
        Response show(int status, String id, String notice, String confirmCancel);
    }

    private final OrderTransitions transitions;
    private final PaymentService payments;
    private final PageText text;

    public OrderActions(OrderTransitions transitions, PaymentService payments, PageText text) {
        this.transitions = transitions;
        this.payments = payments;
        this.text = text;
    }

    /**
     * Does the action and answers as the order's page at {@code pagePath} + id: done, it shows the order again (303); refused,
     * again with the refusal's notice; a cancellation not yet confirmed, the page asking first with the same command id; a
     * payment the provider must authenticate (3-D Secure), the provider's page, which sends the customer back.
     */
    public Response act(Caller caller, String pagePath, OrderShown page, Supplier<Response> missing, String id, String action, String commandId, String paymentMethod,
            String confirmed) {
        String command;
        try {
            // The limits of an Idempotency-Key, so that every command id fits in the history; a form without one is refused too.
            command = IdempotencyKey.valueOf(Objects.requireNonNullElse(commandId, "")).value();
        } catch (ProblemException invalid) {
            return page.show(400, id, text.get("order_invalidCommand"), null);
        }
        UriBuilder back = UriBuilder.fromPath(pagePath + "{id}");
        try {
            UUID orderId = UUID.fromString(id);
            OrderEvent event = OrderEvent.fromWireName(action);
            if (event == OrderEvent.CANCEL && !CONFIRMED.equals(confirmed)) {
                // A cancellation cannot be undone (a paid order is refunded).
                return page.show(200, id, "", command);
            }
            if (event == OrderEvent.PAY) {
                if (payments.pay(caller, orderId, PayRequest.methodOf(new PayRequest(paymentMethod)), command)
                        instanceof PaymentService.ActionRequired authenticate) {
                    return Response.seeOther(URI.create(authenticate.nextAction().url())).build();
                }
            } else {
                transitions.apply(caller, orderId, event, command);
            }
        } catch (ProblemException refused) {
            back.queryParam("notice", refused.problem().code());
        } catch (IllegalArgumentException notAnId) {
            return missing.get();
        }
        return Response.seeOther(back.build(id)).build();
    }
}
