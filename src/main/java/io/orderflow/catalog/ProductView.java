package io.orderflow.catalog;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.orderflow.shared.money.Money;
import io.orderflow.shared.openapi.ApiDocument;

/** A product as the API shows it; {@code available} is what new orders may still reserve: onHand - reserved. */
public record ProductView(String sku, String name, String description,
        @Schema(ref = ApiDocument.AMOUNT) String price,
        String currency, boolean active, int onHand, int reserved, int available) {

    static ProductView of(Product product) {
        return new ProductView(product.sku, product.name, product.description, Money.format(product.price, product.currency),
                product.currency, product.active, product.onHand, product.reserved, product.available());
    }
}
