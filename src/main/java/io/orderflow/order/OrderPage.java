package io.orderflow.order;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/** One page of {@code GET /orders}; {@code next} is the cursor of the following page, or null at the end. */
public record OrderPage(List<OrderView> items, @JsonInclude(JsonInclude.Include.ALWAYS) String next) {
}
