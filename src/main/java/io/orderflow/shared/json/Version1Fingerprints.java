package io.orderflow.shared.json;

import java.math.BigDecimal;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.orderflow.shared.Hashing;

/**
 * The fingerprints stored before they had a version line, which the same request must still match.
 * <ul>
 * <li>{@link #ofKeyRequest}: the {@code fingerprint} of {@code idempotency_keys} rows and of the
 * Idempotency-Key records in Redis. It may go once {@code orders.idempotency.retention} has passed since
 * the last instance of version 1 stopped: every key it kept is forgotten by then.
 * <li>{@link #ofOrder}: {@code orders.request_fingerprint} and the order tokens' records in Redis. A
 * token's retry is answered from its order for as long as the order exists, so this may go only once
 * no retry of a token of an order version 1 placed is expected any more.
 * </ul>
 */
final class Version1Fingerprints {

    /** An order's members sorted by name, as Jackson writes a TreeMap, and its amounts as strings at the currency's scale ({@code "12.50"}). */
    private static final ObjectMapper ORDER = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .withConfigOverride(BigDecimal.class, amounts -> amounts.setFormat(JsonFormat.Value.forShape(JsonFormat.Shape.STRING)))
            .build();

    private Version1Fingerprints() {
    }

    /** Method, path and canonical body, hashed without a version line. */
    static String ofKeyRequest(String request) {
        return Hashing.sha256Hex(request);
    }

    static String ofOrder(Map<String, ?> order) {
        try {
            return Hashing.sha256Hex(ORDER.writeValueAsString(order));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An order request always serialises", e);
        }
    }
}
