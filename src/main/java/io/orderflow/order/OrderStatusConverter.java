package io.orderflow.order;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import io.orderflow.lifecycle.OrderStatus;

/** Stores a status by its wire name, the names the SQL check constraint lists. */
@Converter
public class OrderStatusConverter implements AttributeConverter<OrderStatus, String> {

    @Override
    public String convertToDatabaseColumn(OrderStatus status) {
        return status == null ? null : status.wireName();
    }

    @Override
    public OrderStatus convertToEntityAttribute(String name) {
        return name == null ? null : OrderStatus.fromWireName(name);
    }
}
