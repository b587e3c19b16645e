package io.orderflow.catalog;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/** One page of {@code GET /products/{sku}/stock/history}, newest first; {@code next} is the cursor of the following page, or null at the end. */
public record StockHistoryPage(List<StockHistoryEntry> items,
        @JsonInclude(JsonInclude.Include.ALWAYS)
        @Schema(type = SchemaType.STRING, nullable = true, description = "The cursor of the next page; null on the last page")
        String next) {
}
