package io.orderflow.shared;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;

/**
 * JSON this service stores and reads back later (an answer kept in Redis, an outbox payload, a
 * reconciliation report). During a rolling deploy an instance reads what a newer one wrote, with
 * members it does not know yet: those are skipped, not refused, or a record would stay unreadable to
 * this version for its whole life.
 * Every other setting of {@link JsonSettings} still holds; requests are read strictly as before.
 */
@Singleton
public class StoredJson {

    private final ObjectMapper json;
    private final ObjectReader reader;

    public StoredJson(ObjectMapper json) {
        this.json = json;
        this.reader = json.reader().without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    public String write(Object value) throws JsonProcessingException {
        return json.writeValueAsString(value);
    }

    public <T> T read(String stored, Class<T> type) throws JsonProcessingException {
        return reader.forType(type).readValue(stored);
    }
}
