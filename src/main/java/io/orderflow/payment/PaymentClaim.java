package io.orderflow.payment;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * A hold on one payment attempt: who holds it ({@code claimId}, the fencing token every write of the
 * row must present) and what the provider is to be sent under its key.
 */
record PaymentClaim(long id, UUID orderId, int attempt, String key, BigDecimal amount, String currency, String paymentMethod,
        UUID claimId, Instant sentAt) {
}
