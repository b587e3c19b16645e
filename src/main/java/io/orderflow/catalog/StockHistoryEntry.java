package io.orderflow.catalog;

import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * One change of a product's stock: {@code quantity} is the signed change of the count {@code changes} names. An
 * adjustment changes onHand by its delta; a reservation raises reserved; a release lowers reserved; a shipment lowers
 * onHand, and reserved by as much (the reservation is used up), so available stays as it was.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StockHistoryEntry(Instant at, Kind kind,
        @Schema(description = "The signed change of the count named by changes", example = "-2") int quantity,
        Counted changes,
        @Schema(description = "Who: the staff member who adjusted, the customer who ordered, whoever cancelled or shipped "
                + "(system: an order not paid by its deadline)") String actor,
        @Schema(description = "An adjustment's reason") String reason,
        @Schema(description = "The order of a reservation, release or shipment") UUID orderId,
        @Schema(description = "Its order number") Long orderNumber,
        @Schema(description = "On hand right after an adjustment") Integer onHandAfter) {

    /** What happened to the stock; in the order of their ranks in the history, from 1. */
    @Schema(name = "StockChangeKind", description = "`adjustment`: staff changed on hand; `reservation`: an order was placed; "
            + "`release`: it was cancelled (by its customer, staff, or the system at its payment deadline); `shipment`: it shipped")
    public enum Kind {
        ADJUSTMENT(Counted.ON_HAND), RESERVATION(Counted.RESERVED), RELEASE(Counted.RESERVED), SHIPMENT(Counted.ON_HAND);

        private final Counted changes;

        Kind(Counted changes) {
            this.changes = changes;
        }

        Counted changes() {
            return changes;
        }

        @JsonValue
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The count an entry changes. */
    @Schema(name = "StockCount", description = "`onHand`: the units in the warehouse; `reserved`: those held for orders")
    public enum Counted {
        ON_HAND("onHand"), RESERVED("reserved");

        private final String wireName;

        Counted(String wireName) {
            this.wireName = wireName;
        }

        @JsonValue
        public String wireName() {
            return wireName;
        }
    }
}
