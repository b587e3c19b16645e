package io.orderflow.catalog;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/** One page of {@code GET /products}, in sku order; {@code next} is the cursor of the following page, or null at the end. */
public record ProductPage(List<ProductView> items, @JsonInclude(JsonInclude.Include.ALWAYS) String next) {
}
