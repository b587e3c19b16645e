package io.orderflow.order;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.orderflow.idempotency.IdempotencyKey;
import io.orderflow.idempotency.IdempotencyKeys;
import io.orderflow.idempotency.KeptWithEffect;
import io.orderflow.idempotency.KeyClaimedAlongside;
import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.shared.openapi.ApiDocument;
import io.orderflow.shared.security.Caller;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;
import io.smallrye.mutiny.Uni;

@Path("/orders")
@BasicAuthentication
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocument.ORDERS)
@SecurityRequirement(name = ApiDocument.BASIC)
@SecurityRequirement(name = ApiDocument.BEARER)
public class OrderResource {

    public static final String ORDER_TOKEN = "Order-Token";

    private final OrderService orders;
    private final OrderTransitions transitions;
    private final SecurityIdentity identity;

    public OrderResource(OrderService orders, OrderTransitions transitions, SecurityIdentity identity) {
        this.orders = orders;
        this.transitions = transitions;
        this.identity = identity;
    }

    @POST
    @KeptWithEffect
    @KeyClaimedAlongside
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createOrder",
            summary = "Create an order with a one-time order token, priced from the catalog and reserving its stock; "
                    + "repeats answer the first order")
    @Parameter(name = IdempotencyKeys.HEADER, in = ParameterIn.HEADER,
            description = "Optional: a retry with it and a fresh order token answers the first order",
            schema = @Schema(ref = "IdempotencyKey"))
    @APIResponse(responseCode = "201", description = "The order (a repeat: the first answer, with Idempotent-Replayed: true)",
            headers = { @Header(name = "Location", description = "/orders/{id}", schema = @Schema(type = SchemaType.STRING)),
                    @Header(name = "Idempotent-Replayed", description = "true on a repeat", schema = @Schema(type = SchemaType.STRING)) },
            content = @Content(schema = @Schema(implementation = OrderView.class)))
    @APIResponse(responseCode = "400", description = "`validation-failed` (also a sku that is not a product on sale), `malformed-json`, "
            + "`order-token-missing`, `idempotency-key-invalid`")
    @APIResponse(responseCode = "409", description = "`price-changed` (items: the current prices) or `out-of-stock` (items: sku, requested, "
            + "available), both leaving the token usable; `order-token-in-use` or `idempotency-key-in-use`: see Retry-After")
    @APIResponse(responseCode = "410", description = "`order-token-invalid`: unknown, expired or not yours; take a new one")
    @APIResponse(responseCode = "422", description = "`order-token-reused` or `idempotency-key-reused` with another body; `shipping-address-missing`: "
            + "no shippingAddress and none saved for the customer")
    public Uni<Response> create(@Parameter(description = "A token from POST /orders/token", required = true) @RestHeader(ORDER_TOKEN) String token,
            OrderRequest request) {
        return orders.create(Caller.of(identity), token, request).map(OrderResponses::created);
    }

    @POST
    @KeptWithEffect
    @Path("{id}/ship")
    @Operation(operationId = "shipOrder", summary = "Ship a paid order (staff)")
    @APIResponse(responseCode = "200", description = "The order; a transition that already happened is marked Idempotent-Replayed: true",
            content = @Content(schema = @Schema(implementation = OrderView.class)))
    @APIResponse(responseCode = "400", description = "`idempotency-key-invalid`")
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    @APIResponse(responseCode = "404", description = "`order-not-found`: unknown or not yours")
    @APIResponse(responseCode = "409", description = "`invalid-transition`, with currentStatus and allowedActions; "
            + "`idempotency-key-in-use`: see Retry-After")
    @APIResponse(responseCode = "422", description = "`idempotency-key-reused` for another request")
    public Response ship(@RestPath String id,
            @Parameter(description = "Optional; kept as the command's id in the history")
            @RestHeader(IdempotencyKeys.HEADER) IdempotencyKey key) {
        return transition(id, OrderEvent.SHIP, key);
    }

    @POST
    @KeptWithEffect
    @Path("{id}/deliver")
    @Operation(operationId = "deliverOrder", summary = "Mark a shipped order delivered (staff)")
    @APIResponse(responseCode = "200", description = "The order; a transition that already happened is marked Idempotent-Replayed: true",
            content = @Content(schema = @Schema(implementation = OrderView.class)))
    @APIResponse(responseCode = "400", description = "`idempotency-key-invalid`")
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    @APIResponse(responseCode = "404", description = "`order-not-found`: unknown or not yours")
    @APIResponse(responseCode = "409", description = "`invalid-transition`, with currentStatus and allowedActions; "
            + "`idempotency-key-in-use`: see Retry-After")
    @APIResponse(responseCode = "422", description = "`idempotency-key-reused` for another request")
    public Response deliver(@RestPath String id,
            @Parameter(description = "Optional; kept as the command's id in the history")
            @RestHeader(IdempotencyKeys.HEADER) IdempotencyKey key) {
        return transition(id, OrderEvent.DELIVER, key);
    }

    @POST
    @KeptWithEffect
    @Path("{id}/cancel")
    @Operation(operationId = "cancelOrder", summary = "Cancel a created or paid order")
    @APIResponse(responseCode = "200", description = "The order; a transition that already happened is marked Idempotent-Replayed: true",
            content = @Content(schema = @Schema(implementation = OrderView.class)))
    @APIResponse(responseCode = "400", description = "`idempotency-key-invalid`")
    @APIResponse(responseCode = "403", description = "`forbidden`: your role may not do this")
    @APIResponse(responseCode = "404", description = "`order-not-found`: unknown or not yours")
    @APIResponse(responseCode = "409", description = "`invalid-transition`, with currentStatus and allowedActions; "
            + "`idempotency-key-in-use`: see Retry-After")
    @APIResponse(responseCode = "422", description = "`idempotency-key-reused` for another request")
    public Response cancel(@RestPath String id,
            @Parameter(description = "Optional; kept as the command's id in the history")
            @RestHeader(IdempotencyKeys.HEADER) IdempotencyKey key) {
        return transition(id, OrderEvent.CANCEL, key);
    }

    /** The history keeps the canonical key as the command id; these transitions take a key but do not need one. */
    private Response transition(String id, OrderEvent event, IdempotencyKey key) {
        return OrderResponses.ok(transitions.apply(Caller.of(identity), OrderResponses.idOf(id), event, key == null ? null : key.value()));
    }

    @GET
    @Path("{id}")
    @Operation(operationId = "getOrder", summary = "An order with its history")
    @APIResponse(responseCode = "200", description = "The order", content = @Content(schema = @Schema(implementation = OrderView.class)))
    @APIResponse(responseCode = "404", description = "`order-not-found`: unknown or not yours")
    public OrderView get(@RestPath String id) {
        return orders.get(Caller.of(identity), id);
    }

    @GET
    @Operation(operationId = "listOrders", summary = "Your orders (staff: all, or those of a customer, a number or a time), newest first",
            description = "The filters combine: an order is listed when it passes every one given. The next page is asked for with "
                    + "the same filters and after set to the previous page's next.")
    @APIResponse(responseCode = "200", description = "One page; next is the cursor of the following page, null at the end",
            content = @Content(schema = @Schema(implementation = OrderPage.class)))
    @APIResponse(responseCode = "400", description = "`validation-failed`, naming the parameter: an unknown status, limit not 1 to 100, "
            + "after not a cursor, customer not a user name, orderNumber not a whole number, createdFrom or createdTo not an ISO-8601 "
            + "instant, createdTo not later than createdFrom")
    @APIResponse(responseCode = "403", description = "`forbidden`: a customer named another customer; a customer's list is always their own")
    public OrderPage list(
            @Parameter(description = "Only orders in this state", schema = @Schema(implementation = OrderStatus.class)) @RestQuery String status,
            @Parameter(description = "Only the orders of this customer (a user name). Staff may name anyone; a customer only themselves",
                    schema = @Schema(type = SchemaType.STRING, maxLength = 255)) @RestQuery String customer,
            @Parameter(description = "Only the order with this number, as people see it (orderNumber)",
                    schema = @Schema(type = SchemaType.INTEGER, format = "int64", minimum = "1")) @RestQuery String orderNumber,
            @Parameter(description = "Only orders created at or after this instant (ISO-8601, e.g. 2026-01-31T00:00:00Z)",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time")) @RestQuery String createdFrom,
            @Parameter(description = "Only orders created before this instant (ISO-8601)",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time")) @RestQuery String createdTo,
            @Parameter(description = "Page size, 1 to 100 (default 20)",
                    schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "100")) @RestQuery String limit,
            @Parameter(description = "The next cursor of the previous page") @RestQuery String after) {
        return orders.list(Caller.of(identity), new OrderQuery(status, customer, orderNumber, createdFrom, createdTo), limit, after);
    }
}
