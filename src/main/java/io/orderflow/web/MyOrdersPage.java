package io.orderflow.web;

import java.util.HashMap;
import java.util.Map;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestQuery;

import io.orderflow.order.OrderPage;
import io.orderflow.order.OrderQuery;
import io.orderflow.order.OrderService;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;

/** The signed-in customer's orders, newest first (staff: everyone's), a page at a time, each leading to its order's page. */
@Path("/checkout/orders")
@FormAuthentication
@Authenticated
public class MyOrdersPage {

    private final OrderService orders;
    private final Pages pages;
    private final PageText text;
    private final SecurityIdentity identity;

    public MyOrdersPage(OrderService orders, Pages pages, PageText text, SecurityIdentity identity) {
        this.orders = orders;
        this.pages = pages;
        this.text = text;
        this.identity = identity;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show(@RestQuery String after) {
        Caller caller = Caller.of(identity);
        try {
            return page(200, orders.list(caller, OrderQuery.NONE, null, after), null);
        } catch (ProblemException notACursor) {
            return page(400, orders.list(caller, OrderQuery.NONE, null, null), text.get("orders_badLink"));
        }
    }

    private Response page(int status, OrderPage shown, String message) {
        Map<String, Object> data = new HashMap<>();
        data.put("orders", shown);
        data.put("staff", Caller.of(identity).staff());
        data.put("message", message);
        return pages.page(status, "orders", data);
    }
}
