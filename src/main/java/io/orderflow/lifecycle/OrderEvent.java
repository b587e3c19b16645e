package io.orderflow.lifecycle;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

public enum OrderEvent {
    PAY, SHIP, DELIVER, CANCEL,
    /** The system's: a created order not paid by its deadline is cancelled. */
    EXPIRE,
    /** The system's: a shipped order not delivered by its deadline is delivered. */
    CONFIRM;

    /** The name used in JSON, SQL and URLs ({@code POST /orders/{id}/pay}). */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
