package io.orderflow.catalog;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.orderflow.idempotency.IdempotencyKeys;
import io.orderflow.idempotency.KeptWithEffect;
import io.orderflow.shared.openapi.ApiDocument;
import io.orderflow.shared.security.Caller;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;

/** The catalog: any signed-in user reads it (customers: active products only); staff add, change and restock products. */
@Path("/products")
@BasicAuthentication
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocument.PRODUCTS)
@SecurityRequirement(name = ApiDocument.BASIC)
@SecurityRequirement(name = ApiDocument.BEARER)
public class ProductResource {

    private final Catalog catalog;
    private final ProductRequestValidator requests;
    private final StockHistoryStore history;
    private final SecurityIdentity identity;

    public ProductResource(Catalog catalog, ProductRequestValidator requests, StockHistoryStore history, SecurityIdentity identity) {
        this.catalog = catalog;
        this.requests = requests;
        this.history = history;
        this.identity = identity;
    }

    @GET
    @Operation(operationId = "listProducts", summary = "Products in sku order (customers: active ones only)")
    @APIResponse(responseCode = "200", description = "One page; next is the cursor of the following page, null at the end",
            content = @Content(schema = @Schema(implementation = ProductPage.class)))
    @APIResponse(responseCode = "400", description = "`validation-failed`: limit not 1 to 100, or after not a cursor")
    public ProductPage list(
            @Parameter(description = "Page size, 1 to 100 (default 20)",
                    schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "100")) @RestQuery String limit,
            @Parameter(description = "The next cursor of the previous page") @RestQuery String after) {
        return catalog.list(Caller.of(identity), limit, after);
    }

    @GET
    @Path("{sku}")
    @Operation(operationId = "getProduct", summary = "One product")
    @APIResponse(responseCode = "200", description = "The product", content = @Content(schema = @Schema(implementation = ProductView.class)))
    @APIResponse(responseCode = "404", description = "`product-not-found` (for customers also an inactive product)")
    public ProductView get(@RestPath String sku) {
        return catalog.get(Caller.of(identity), sku);
    }

    @POST
    @KeptWithEffect
    @RolesAllowed(Caller.STAFF)
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createProduct", summary = "Add a product (staff)")
    @Parameter(name = IdempotencyKeys.HEADER, in = ParameterIn.HEADER, description = "Optional: a retry with it answers the first result",
            schema = @Schema(ref = "IdempotencyKey"))
    @APIResponse(responseCode = "201", description = "The product, at Location /products/{sku}",
            content = @Content(schema = @Schema(implementation = ProductView.class)))
    @APIResponse(responseCode = "400",
            description = "`validation-failed`, naming every wrong field; `malformed-json`; `idempotency-key-invalid`")
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    @APIResponse(responseCode = "409", description = "`product-exists`: the sku is taken; `idempotency-key-in-use`: see Retry-After")
    @APIResponse(responseCode = "422", description = "`idempotency-key-reused` for another request")
    public Response create(ProductRequest request) {
        return ProductResponses.created(catalog.create(requests.forCreate(request)));
    }

    @PUT
    @Path("{sku}")
    @RolesAllowed(Caller.STAFF)
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "replaceProduct",
            summary = "Replace a product's name, description, price, currency and active flag (staff); sku and onHand are refused")
    @APIResponse(responseCode = "200", description = "The product", content = @Content(schema = @Schema(implementation = ProductView.class)))
    @APIResponse(responseCode = "400", description = "`validation-failed`, naming every wrong field, also a sku or onHand in the body; "
            + "`malformed-json`")
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    @APIResponse(responseCode = "404", description = "`product-not-found`")
    public ProductView replace(@RestPath String sku, ProductRequest request) {
        return catalog.replace(sku, requests.forUpdate(request));
    }

    @POST
    @KeptWithEffect
    @Path("{sku}/stock")
    @RolesAllowed(Caller.STAFF)
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "adjustStock",
            summary = "Add stock, or take it away with a negative delta (staff); each adjustment is recorded with its reason")
    @Parameter(name = IdempotencyKeys.HEADER, in = ParameterIn.HEADER, description = "Optional: a retry with it is not applied twice",
            schema = @Schema(ref = "IdempotencyKey"))
    @APIResponse(responseCode = "200", description = "The product", content = @Content(schema = @Schema(implementation = ProductView.class)))
    @APIResponse(responseCode = "400", description = "`validation-failed`: delta not -1000000 to 1000000 or 0, reason not 1 to 200 "
            + "characters; `malformed-json`; `idempotency-key-invalid`")
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    @APIResponse(responseCode = "404", description = "`product-not-found`")
    @APIResponse(responseCode = "409", description = "`insufficient-stock`: on hand would fall below reserved; "
            + "`stock-limit-exceeded`: on hand would pass 1000000000; both with onHand, reserved and available; "
            + "`idempotency-key-in-use`: see Retry-After")
    @APIResponse(responseCode = "422", description = "`idempotency-key-reused` for another request")
    public ProductView adjust(@RestPath String sku, StockAdjustmentRequest request) {
        return catalog.adjust(Caller.of(identity), sku, requests.adjustment(request));
    }

    @GET
    @Path("{sku}/stock/history")
    @RolesAllowed(Caller.STAFF)
    @Operation(operationId = "getStockHistory",
            summary = "A product's stock history, newest first (staff): adjustments with who and why, and the reservation, "
                    + "release (cancel or expiry) and shipment of each order that holds stock, with who and which order")
    @APIResponse(responseCode = "200", description = "One page; next is the cursor of the following page, null at the end",
            content = @Content(schema = @Schema(implementation = StockHistoryPage.class)))
    @APIResponse(responseCode = "400", description = "`validation-failed`: limit not 1 to 100, or after not a cursor")
    @APIResponse(responseCode = "403", description = "`forbidden`: staff only")
    @APIResponse(responseCode = "404", description = "`product-not-found`")
    public StockHistoryPage history(@RestPath String sku,
            @Parameter(description = "Page size, 1 to 100 (default 20)",
                    schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "100")) @RestQuery String limit,
            @Parameter(description = "The next cursor of the previous page") @RestQuery String after) {
        return history.of(sku, limit, after);
    }
}
