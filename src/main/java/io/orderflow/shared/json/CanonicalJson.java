package io.orderflow.shared.json;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.orderflow.shared.money.Money;

/**
 * The one canonical form of JSON that fingerprints hash, so that two writings of one request are one
 * request: members sorted, no insignificant whitespace, numbers by value ({@code 12.50} is {@code 12.5},
 * never an exponent), and the amounts of {@link Money#AMOUNT_MEMBERS} by value whether written as number
 * or decimal string. Other strings, such as a sku {@code "12.50"}, stay as written.
 */
public final class CanonicalJson {

    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .enable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(SerializationFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private CanonicalJson() {
    }

    /** The canonical form of a JSON text; empty when the bytes are not JSON. */
    public static Optional<String> of(byte[] text) {
        try {
            JsonNode tree = CANONICAL.readTree(text);
            if (tree != null) {
                return Optional.of(canonical(tree));
            }
        } catch (IOException | NumberFormatException notJson) {
            // Jackson reports a number beyond any BigDecimal (1e-9999999999) as NumberFormatException
        }
        return Optional.empty();
    }

    /** The canonical form of a value as JSON: maps, lists, strings, numbers and booleans. */
    public static String write(Object value) {
        try {
            return canonical(CANONICAL.valueToTree(value));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IllegalStateException("Maps, lists, strings and numbers always serialise", e);
        }
    }

    private static String canonical(JsonNode tree) throws JsonProcessingException {
        readAmounts(tree);
        return CANONICAL.writeValueAsString(tree);
    }

    /** Replaces amounts written as decimal strings by the numbers they spell; other strings, such as a sku "12.50", stay text. */
    private static void readAmounts(JsonNode node) {
        if (!(node instanceof ObjectNode object)) {
            node.forEach(CanonicalJson::readAmounts);
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
