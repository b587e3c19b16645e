package io.orderflow.order;

import java.util.UUID;

import jakarta.ws.rs.core.Response;

import io.orderflow.shared.http.Headers;

/** HTTP answers shared by the endpoints that act on an order. */
public final class OrderAnswers {

    private OrderAnswers() {
    }

    /** The order id in a path; anything else is an order that does not exist (404). */
    public static UUID idOf(String path) {
        return OrderService.parseId(path).orElseThrow(OrderService::notFound);
    }

    /** 200 with the order; a transition that already happened is marked as a replay. */
    public static Response ok(OrderTransitions.Outcome outcome) {
        Response.ResponseBuilder answer = Response.ok(outcome.order());
        if (outcome.replayed()) {
            answer.header(Headers.REPLAYED, "true");
        }
        return answer.build();
    }
}
