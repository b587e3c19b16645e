package io.orderflow.lifecycle;

import java.util.Locale;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonValue;

@Schema(description = "expire and confirm are the system's, fired when a deadline passes: never offered to callers")
public enum OrderEvent {
    PAY, SHIP, DELIVER, CANCEL,
    /** The system's: a created order not paid by its deadline is cancelled. */
    EXPIRE,
    /** The system's: a shipped order not delivered by its deadline is delivered. */
    CONFIRM;

    /** The event with this name in JSON, SQL and URLs. */
    public static OrderEvent fromWireName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    /** The name used in JSON, SQL and URLs ({@code POST /orders/{id}/pay}). */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
