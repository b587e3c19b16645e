package io.orderflow.catalog;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/** HTTP answers of the endpoints that change a product. */
final class ProductResponses {

    private ProductResponses() {
    }

    /** 201 with the product and its address. */
    static Response created(ProductView product) {
        return Response.status(Response.Status.CREATED).header(HttpHeaders.LOCATION, "/products/" + product.sku()).entity(product).build();
    }

    static Response ok(ProductView product) {
        return Response.ok(product).build();
    }
}
