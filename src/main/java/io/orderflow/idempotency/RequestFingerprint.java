package io.orderflow.idempotency;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.Map;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.orderflow.shared.Hashing;
import io.orderflow.shared.money.Money;

/**
 * What makes two requests the same request: method, path and body. A JSON body is compared in
 * canonical form (members sorted, no insignificant whitespace, numbers by value, and the amounts
 * of {@link Money#AMOUNT_MEMBERS} by value whether written as number or string), so reordered
 * members or {@code "2.50"} for {@code 2.5} do not make another request; other bodies compare byte by byte.
 */
final class RequestFingerprint {

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
                readAmounts(tree);
                return "json:" + CANONICAL.writeValueAsString(tree);
            }
        } catch (IOException | NumberFormatException notJson) {
            // compared as bytes below; Jackson reports a number beyond any BigDecimal (1e-9999999999) as NumberFormatException
        }
        return "bytes:" + HexFormat.of().formatHex(body);
    }

    /** Replaces amounts written as decimal strings by the numbers they spell; other strings, such as a sku "12.50", stay text. */
    private static void readAmounts(JsonNode node) {
        if (!(node instanceof ObjectNode object)) {
            node.forEach(RequestFingerprint::readAmounts);
            return;
        }
        for (Map.Entry<String, JsonNode> member : object.properties()) {
            JsonNode value = member.getValue();
            if (Money.AMOUNT_MEMBERS.contains(member.getKey()) && value.isTextual() && Money.DECIMAL.matcher(value.textValue()).matches()) {
                member.setValue(DecimalNode.valueOf(new BigDecimal(value.textValue()).stripTrailingZeros()));
            } else {
                readAmounts(value);
            }
        }
    }
}
