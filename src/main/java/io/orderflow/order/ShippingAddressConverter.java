package io.orderflow.order;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.orderflow.customer.ShippingAddress;

/**
 * Reads an order's {@code shipping_address} (JSONB, written by the order's insert) into its record. Members a
 * newer release added are skipped, as {@code StoredJson} skips them. Orders are never written through the entity.
 */
@Converter
class ShippingAddressConverter implements AttributeConverter<ShippingAddress, String> {

    private static final ObjectReader READER = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build()
            .readerFor(ShippingAddress.class);

    @Override
    public String convertToDatabaseColumn(ShippingAddress address) {
        throw new UnsupportedOperationException("Orders are inserted by OrderStore's statement, never through the entity");
    }

    @Override
    public ShippingAddress convertToEntityAttribute(String stored) {
        try {
            return stored == null ? null : READER.readValue(stored);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An order's stored shipping address could not be read", e);
        }
    }
}
