package io.orderflow.idempotency;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An Idempotency-Key as it is kept: the canonical, unquoted key, so that {@code "abc"} and
 * {@code abc} are one key and every valid key fits wherever it is stored (1 to 255 characters).
 * JAX-RS builds it from a header value with {@link #valueOf}; the constructor is private so that
 * JAX-RS cannot build one from the raw value instead.
 */
@Schema(type = SchemaType.STRING, description = "1 to 255 characters: visible ASCII without spaces, or an RFC 8941 quoted string")
public final class IdempotencyKey {

    private final String value;

    private IdempotencyKey(String value) {
        this.value = value;
    }

    /** The key a header value stands for; 400 {@code idempotency-key-invalid} when it breaks the header's rules. */
    public static IdempotencyKey valueOf(String headerValue) {
        return new IdempotencyKey(IdempotencyKeys.canonical(headerValue));
    }

    /** The unquoted key. */
    public String value() {
        return value;
    }
}
