package io.orderflow.order;

import java.util.UUID;

import jakarta.ws.rs.core.Response;

import io.orderflow.shared.http.Headers;

/** HTTP answers shared by the endpoints that act on an order. */
public final class OrderResponses {

    private OrderResponses() {
    }

    /** The order id in a path; anything else is an order that does not exist (404). */
    public static UUID idOf(String path) {
        return OrderService.parseId(path).orElseThrow(OrderService::notFound);
    }

    /** 200 with the order; a transition that already happened is marked as a replay. */
    public static Response ok(OrderTransitions.Outcome outcome) {
        return marked(Response.ok(outcome.order()), outcome.replayed());
    }

    /** 201 with the order as created and its address; a repeat of the creation is marked as a replay. */
    public static Response created(OrderService.Creation creation) {
        return marked(Response.status(Response.Status.CREATED).header("Location", "/orders/" + creation.id())
                .entity(creation.body()), creation.replayed());
    }

    private static Response marked(Response.ResponseBuilder answer, boolean replayed) {
        if (replayed) {
            answer.header(Headers.REPLAYED, "true");
        }
        return answer.build();
    }
}
