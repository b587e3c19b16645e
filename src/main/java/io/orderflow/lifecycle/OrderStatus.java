package io.orderflow.lifecycle;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

public enum OrderStatus {
    CREATED, PAID, SHIPPED, DELIVERED, CANCELLED;

    /** The name used in JSON, SQL and URLs. */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static OrderStatus fromWireName(String name) {
        for (OrderStatus status : values()) {
            if (status.wireName().equals(name)) {
                return status;
            }
        }
        throw new IllegalArgumentException("Unknown order status " + name);
    }
}
