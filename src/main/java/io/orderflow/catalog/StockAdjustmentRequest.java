package io.orderflow.catalog;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The body of {@code POST /products/{sku}/stock}: {@code {"delta":-3,"reason":"3 damaged in the warehouse"}}. */
public record StockAdjustmentRequest(
        @NotNull(message = "is required")
        @Min(value = -MAX_DELTA, message = DELTA_RANGE)
        @Max(value = MAX_DELTA, message = DELTA_RANGE)
        @Schema(description = "Units added to on hand (negative: taken away); not 0", example = "-3")
        Integer delta,

        @NotBlank(message = "is required and must not be blank")
        @Size(max = 200, message = "must be at most 200 characters")
        @Pattern(regexp = Catalog.ONE_LINE, message = "must not contain control characters")
        String reason) {

    static final int MAX_DELTA = 1_000_000;
    static final String DELTA_RANGE = "must be a whole number from -1000000 to 1000000, not 0";
}
