package io.orderflow.idempotency;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.orderflow.shared.Hashing;

/**
 * What makes two requests the same request: method, path and body. A JSON body is compared in
 * canonical form (members sorted, no insignificant whitespace, numbers by value), so reordered
 * members or {@code 2.50} for {@code 2.5} do not make another request; other bodies compare byte by byte.
 */
public final class RequestFingerprint {

    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .enable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(SerializationFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private RequestFingerprint() {
    }

    public static String of(String method, String path, byte[] body) {
        return Hashing.sha256Hex(method + "\n" + path + "\n" + canonical(body));
    }

    private static String canonical(byte[] body) {
        if (body.length == 0) {
            return "";
        }
        try {
            JsonNode tree = CANONICAL.readTree(body);
            if (tree != null) {
                return "json:" + CANONICAL.writeValueAsString(tree);
            }
        } catch (IOException notJson) {
            // compared as bytes below
        }
        return "bytes:" + HexFormat.of().formatHex(body);
    }
}
