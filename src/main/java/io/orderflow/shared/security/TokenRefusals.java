package io.orderflow.shared.security;

import java.util.Map;

import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;

import io.quarkus.security.AuthenticationFailedException;

/**
 * Why a bearer token was refused, in words its client can act on: expired, not yet valid, living too long,
 * from another issuer, for another audience, not signed by the trusted key, or naming no caller. Nothing
 * more of the token or the key is told.
 */
public final class TokenRefusals {

    private static final Map<Integer, String> BY_CODE = Map.ofEntries(
            Map.entry(ErrorCodes.EXPIRED, "it has expired; ask for a new one"),
            Map.entry(ErrorCodes.NOT_YET_VALID, "it is not valid yet (nbf)"),
            Map.entry(ErrorCodes.ISSUED_AT_INVALID_FUTURE, "it says it was issued in the future (iat)"),
            Map.entry(ErrorCodes.EXPIRATION_TOO_FAR_IN_FUTURE, "it lives longer than the service accepts (exp - iat is at most an hour)"),
            Map.entry(ErrorCodes.ISSUED_AT_MISSING, "it has no issued-at time (iat)"),
            Map.entry(ErrorCodes.EXPIRATION_MISSING, "it has no expiry (exp)"),
            Map.entry(ErrorCodes.ISSUER_INVALID, "its issuer (iss) is not the one this service trusts"),
            Map.entry(ErrorCodes.ISSUER_MISSING, "it names no issuer (iss)"),
            Map.entry(ErrorCodes.AUDIENCE_INVALID, "it is not for this service (aud)"),
            Map.entry(ErrorCodes.AUDIENCE_MISSING, "it names no audience (aud)"),
            Map.entry(ErrorCodes.SIGNATURE_INVALID, "its signature does not verify with the key this service trusts"),
            Map.entry(ErrorCodes.SIGNATURE_MISSING, "it is not signed"),
            Map.entry(ErrorCodes.SUBJECT_MISSING, "it names no subject (sub)"));

    private TokenRefusals() {
    }

    /** The reason for the refusal of a token, read from the failure's causes. */
    public static String reason(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidJwtException invalid) {
                for (Map.Entry<Integer, String> known : BY_CODE.entrySet()) {
                    if (invalid.hasErrorCode(known.getKey())) {
                        return known.getValue();
                    }
                }
            }
            if (cause instanceof SubjectRefused refused) {
                return refused.reason();
            }
        }
        return "it could not be read or verified";
    }

    /** A token refused by this service's own rules on its subject, with the reason its client is told. */
    public static AuthenticationFailedException subjectRefused(String reason) {
        return new AuthenticationFailedException(new SubjectRefused(reason));
    }

    private static final class SubjectRefused extends RuntimeException {

        private final String reason;

        SubjectRefused(String reason) {
            super("The bearer token was refused: " + reason);
            this.reason = reason;
        }

        String reason() {
            return reason;
        }
    }
}
