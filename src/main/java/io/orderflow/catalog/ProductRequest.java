package io.orderflow.catalog;

import java.math.BigDecimal;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Null;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

import io.orderflow.shared.money.AmountDeserializer;
import io.orderflow.shared.openapi.ApiDocument;

/**
 * The body of {@code POST /products}: {@code {"sku":"TEA-1","name":"Green tea","description":"...",
 * "price":"68.00","currency":"CNY","onHand":100,"active":true}}; and of {@code PUT /products/{sku}},
 * which replaces everything but the sku (the product's address) and onHand (changed only by stock
 * adjustments, which keep a record of each change). Every member but description is required.
 */
public record ProductRequest(
        @NotNull(groups = OnCreate.class, message = "is required")
        @Pattern(groups = OnCreate.class, regexp = Catalog.SKU, message = "must be 1 to 64 letters, digits, '.', '_' or '-'")
        @Null(groups = OnUpdate.class, message = "cannot be changed: it is the product's address")
        @Schema(description = "POST only", example = "TEA-1")
        String sku,

        @NotBlank(message = "is required and must not be blank")
        @Size(max = 200, message = "must be at most 200 characters")
        @Pattern(regexp = Catalog.ONE_LINE, message = "must not contain control characters")
        String name,

        @Size(max = 2000, message = "must be at most 2000 characters")
        @Pattern(regexp = Catalog.MULTI_LINE, message = "must not contain control characters other than tabs and line breaks")
        @Schema(description = "Optional, empty when left out")
        String description,

        @NotNull(message = "is required")
        @DecimalMin(value = "0", inclusive = false, message = "must be greater than 0")
        @DecimalMax(value = "1000000", message = "must be at most 1000000")
        @JsonDeserialize(using = AmountDeserializer.class)
        @Schema(ref = ApiDocument.AMOUNT_INPUT, example = "68.00")
        BigDecimal price,

        @NotNull(message = "is required")
        @Pattern(regexp = "[A-Z]{3}", message = "must be an ISO 4217 code such as CNY")
        String currency,

        @NotNull(groups = OnCreate.class, message = "is required")
        @Min(groups = OnCreate.class, value = 0, message = "must be between 0 and 1000000")
        @Max(groups = OnCreate.class, value = 1_000_000, message = "must be between 0 and 1000000")
        @Null(groups = OnUpdate.class, message = "cannot be set here: adjust stock with POST /products/{sku}/stock")
        @Schema(description = "POST only")
        Integer onHand,

        @NotNull(message = "is required")
        Boolean active) {

    /** The checks of a new product: sku and onHand are required. */
    public interface OnCreate {
    }

    /** The checks of a replacement: sku and onHand are refused. */
    public interface OnUpdate {
    }

    /** The description as stored: empty when left out. */
    String descriptionOrEmpty() {
        return description == null ? "" : description;
    }
}
