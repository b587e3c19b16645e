package io.orderflow.catalog;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.orderflow.shared.money.Money;


/** A product as the API shows it; {@code available} is what new orders may still reserve: onHand - reserved. */
public record ProductView(String sku, String name, String description,
        @Schema(example = "12.50", description = "A decimal string in the currency's minor units") String price,
        String currency, boolean active, int onHand, int reserved, int available) {

    static ProductView of(Product product) {
        return new ProductView(product.sku, product.name, product.description, Money.format(product.price, product.currency),
                product.currency, product.active, product.onHand, product.reserved, product.available());
    }
}
