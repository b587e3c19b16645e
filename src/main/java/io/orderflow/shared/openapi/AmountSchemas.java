package io.orderflow.shared.openapi;

import java.math.BigDecimal;
import java.util.List;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASModelReader;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.media.Schema;

/**
 * The document's money schemas, which annotations cannot spell (an anyOf of a string with a pattern and a
 * number): the API answers every amount as a decimal string, {@value #EXAMPLE}, and takes a string or a
 * JSON number. A client generated from the document then reads the last page of a list and an amount as
 * they come.
 */
public class AmountSchemas implements OASModelReader {

    /** What io.orderflow.shared.money.Money reads and writes: up to 16 digits each side of the point. */
    static final String DECIMAL = "^[0-9]{1,16}(\\.[0-9]{1,16})?$";
    private static final String EXAMPLE = "12.50";

    @Override
    public OpenAPI buildModel() {
        Schema amount = OASFactory.createSchema().addType(Schema.SchemaType.STRING).pattern(DECIMAL).examples(List.of(EXAMPLE))
                .description("An amount as a decimal string in the currency's major unit, with at most its minor digits: \"12.50\" is "
                        + "12 yuan 50 fen");
        Schema input = OASFactory.createSchema()
                .anyOf(List.of(OASFactory.createSchema().ref(ApiDocument.AMOUNT),
                        OASFactory.createSchema().addType(Schema.SchemaType.NUMBER).minimum(BigDecimal.ZERO)))
                .examples(List.of(EXAMPLE))
                .description("An amount in the currency's major unit: a decimal string (recommended) or a JSON number, exact to the "
                        + "minor unit; \"12.5\", \"12.50\" and 12.5 are one amount (12 yuan 50 fen)");
        return OASFactory.createOpenAPI().components(OASFactory.createComponents()
                .addSchema(ApiDocument.AMOUNT, amount)
                .addSchema(ApiDocument.AMOUNT_INPUT, input));
    }
}
