package io.orderflow.lifecycle;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

public enum OrderEvent {
    PAY, SHIP, DELIVER, CANCEL;

    /** The name used in JSON, SQL and URLs ({@code POST /orders/{id}/pay}). */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
