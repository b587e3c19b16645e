package io.orderflow.order;

import java.math.BigDecimal;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

import io.orderflow.customer.ShippingAddress;
import io.orderflow.shared.money.AmountDeserializer;
import io.orderflow.shared.openapi.ApiDocument;

/**
 * The body of {@code POST /orders}: {@code {"currency":"CNY","items":[{"sku":"ABC-1","quantity":2}],"shippingAddress":{...}}}.
 * An item may carry the {@code unitPrice} the customer was shown, which must be the catalog's current price;
 * staff may set it to price a back-office order. Without a shipping address the customer's saved one is used.
 */
public record OrderRequest(
        @NotNull(message = "is required")
        @Pattern(regexp = "[A-Z]{3}", message = "must be an ISO 4217 code such as CNY")
        String currency,

        @NotNull(message = "is required")
        @Size(min = 1, max = 100, message = "must hold 1 to 100 items")
        List<@NotNull(message = "must be an item object") @Valid Item> items,

        @Valid
        @Schema(description = "Where to ship the order; when left out, the address the customer's last order named "
                + "(422 shipping-address-missing when there is none)")
        ShippingAddress shippingAddress) {

    /** An order for the customer's saved address. */
    public OrderRequest(String currency, List<Item> items) {
        this(currency, items, null);
    }

    public record Item(
            @NotNull(message = "is required")
            @Pattern(regexp = "[A-Za-z0-9._-]{1,64}", message = "must be 1 to 64 letters, digits, '.', '_' or '-'")
            String sku,

            @NotNull(message = "is required")
            @Min(value = 1, message = "must be between 1 and 1000")
            @Max(value = 1000, message = "must be between 1 and 1000")
            Integer quantity,

            @DecimalMin(value = "0", inclusive = false, message = "must be greater than 0")
            @DecimalMax(value = "1000000", message = "must be at most 1000000")
            @JsonDeserialize(using = AmountDeserializer.class)
            @Schema(ref = ApiDocument.AMOUNT_INPUT)
            BigDecimal unitPrice) {
    }
}
