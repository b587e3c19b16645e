package io.orderflow.token;

import java.util.UUID;

/**
 * What {@link OrderTokens#claim} found out about a token; {@code CLAIMED} makes this request its holder.
 * A {@code CONSUMED} token may carry the answer its creation gave (JSON), so a repeat needs no database.
 */
public record TokenClaim(Outcome outcome, String customer, String tokenHash, String claimId, UUID orderId, String fingerprint,
        String answer) {

    public enum Outcome {
        /** This request may create the order; it must then complete or release the claim. */
        CLAIMED,
        /** The token already produced an order, for the payload with {@link #fingerprint()}. */
        CONSUMED,
        /** Redis knows no usable token: expired, unknown, another customer's, or forgotten. */
        UNKNOWN,
        /** Another request holds the token ({@link OrderTokens#tryClaim}); {@link OrderTokens#awaitClaim} waits for it. */
        IN_USE
    }
}
