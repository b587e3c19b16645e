package io.orderflow.order;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.orderflow.customer.ShippingAddress;
import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.shared.openapi.ApiDocument;

/**
 * An order as the API shows it to one caller; {@code payBy} while it is created, {@code deliverBy} while
 * it is shipped, {@code history} only on {@code GET /orders/{id}}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OrderView(UUID id, long orderNumber,
        @Schema(description = "Who placed the order: the name of the customer (a user, or a bearer token's subject)") String customer,
        OrderStatus status, String currency,
        @Schema(ref = ApiDocument.AMOUNT) String totalAmount, List<Item> items,
        @Schema(description = "Where the order goes, as it was when ordered (absent on orders placed before addresses were kept)")
        ShippingAddress shippingAddress,
        long version, Instant createdAt, Instant updatedAt,
        @Schema(description = "While created: when the system expires the order unless it is paid") Instant payBy,
        @Schema(description = "While shipped: when the system confirms the order delivered unless it is delivered before") Instant deliverBy,
        List<OrderEvent> allowedActions,
        @Schema(description = "Once shipped (on GET /orders/{id}): the shipment and, when the warehouse has accepted it, its reference")
        Shipment shipment,
        @Schema(description = "When a paid order was cancelled (on GET /orders/{id}): its refund and where it stands")
        Refund refund,
        List<Step> history) {

    /** An order's shipment: {@code requested} until the warehouse accepts it, then {@code accepted} with the warehouse's reference. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Shipment(@Schema(enumeration = { "requested", "accepted" }) String state, String reference) {
    }

    /**
     * The refund of a cancelled order's payment: {@code owed} until the provider makes it, {@code made}, or {@code refused}
     * by the provider for good (with its reason), which staff then settle.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Refund(@Schema(enumeration = { "owed", "made", "refused" }) String state,
            @Schema(ref = ApiDocument.AMOUNT) String amount, String currency, String reason) {
    }

    public record Item(String sku,
            @Schema(description = "The product's name when it was ordered (its sku for a line ordered before names were kept)") String name,
            int quantity, @Schema(ref = ApiDocument.AMOUNT) String unitPrice,
            @Schema(ref = ApiDocument.AMOUNT, description = "unitPrice times quantity") String lineTotal) {
    }

    public record Step(OrderStatus from, OrderStatus to, String event,
            @Schema(description = "Who moved the order: its customer, staff (never which member) or the system (a deadline)",
                    enumeration = { OrderMapper.CUSTOMER, OrderMapper.STAFF, OrderMapper.SYSTEM }) String actor,
            Instant at) {
    }
}
