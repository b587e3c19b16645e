package io.orderflow.payment;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.orderflow.shared.openapi.ApiDocument;

/**
 * What one reconciliation run found: the provider's charges made in [since, until), how many were
 * matched by a paid order's payment, refunded, being refunded, still settling or that took nothing, and
 * every charge that matched nothing (another deployment's included: {@code foreign}), with what was done about it.
 */
public record ReconciliationReport(Instant startedAt, Instant finishedAt, Instant since, Instant until, int charges, int matched,
        int refunded, int refundPending, int unsettled,
        @Schema(description = "Charges that took no money: declined, failed, voided or cancelled at the provider") int notCharged,
        List<Mismatch> mismatches) {

    /** A charge with no paid order to account for it. */
    public record Mismatch(String kind, String chargeKey, String reference, UUID orderId, @Schema(ref = ApiDocument.AMOUNT) String amount,
            String currency, String action) {
    }
}
