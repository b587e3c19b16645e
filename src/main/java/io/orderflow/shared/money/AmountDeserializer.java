package io.orderflow.shared.money;

import java.io.IOException;
import java.math.BigDecimal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

/**
 * Reads an amount from a decimal string ({@code "12.50"}) or a JSON number, taken exactly as
 * written: {@code 12.5} is 12.5, never the binary double closest to it.
 */
public class AmountDeserializer extends JsonDeserializer<BigDecimal> {

    @Override
    public BigDecimal deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
            return parser.getDecimalValue();
        }
        if (token == JsonToken.VALUE_STRING && Money.DECIMAL.matcher(parser.getText()).matches()) {
            return new BigDecimal(parser.getText());
        }
        return (BigDecimal) context.handleUnexpectedToken(BigDecimal.class, parser);
    }

    /** An amount written as null is a mistake: leave the member out where it is optional. */
    @Override
    public BigDecimal getNullValue(DeserializationContext context) throws JsonMappingException {
        throw MismatchedInputException.from(context.getParser(), BigDecimal.class, "An amount may not be null");
    }

    /** A member left out is absent, not null (Jackson asks for it as a null by default). */
    @Override
    public Object getAbsentValue(DeserializationContext context) {
        return null;
    }
}
