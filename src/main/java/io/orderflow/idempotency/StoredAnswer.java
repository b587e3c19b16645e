package io.orderflow.idempotency;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.http.Headers;

/** A final answer kept for replay: status, body and the headers a client relies on; its body kept sealed when it holds a secret. */
public record StoredAnswer(int status, Map<String, String> headers, String body, boolean sealed) {

    private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
    };
    private static final List<String> KEPT_HEADERS = List.of(HttpHeaders.LOCATION, HttpHeaders.CONTENT_TYPE, HttpHeaders.CACHE_CONTROL);

    /** An answer as it goes out: its entity written as the very bytes that replays will send, and its kept headers. */
    static StoredAnswer of(int status, Object entity, MediaType declared, UnaryOperator<String> header, ObjectMapper json, boolean sealed) {
        MediaType type = declared != null ? declared : MediaType.APPLICATION_JSON_TYPE;
        // JSON written from objects says its charset, as it does without a key.
        if (!(entity instanceof byte[]) && type.isCompatible(MediaType.APPLICATION_JSON_TYPE)
                && !type.getParameters().containsKey(MediaType.CHARSET_PARAMETER)) {
            type = type.withCharset("UTF-8");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : KEPT_HEADERS) {
            String value = name.equals(HttpHeaders.CONTENT_TYPE) ? type.toString() : header.apply(name);
            if (value != null) {
                headers.put(name, value);
            }
        }
        return new StoredAnswer(status, headers, new String(bytes(entity, json), StandardCharsets.UTF_8), sealed);
    }

    /** A response an endpoint built, as it will go out. */
    static StoredAnswer of(Response response, ObjectMapper json) {
        return of(response.getStatus(), response.getEntity(), response.getMediaType(), response::getHeaderString, json, false);
    }

    /** An answer as a store keeps it, its headers as a JSON object and its body perhaps sealed. */
    static StoredAnswer read(int status, String headers, String kept, ObjectMapper json, AnswerSeal seal) {
        boolean sealed = AnswerSeal.isSealed(kept);
        try {
            return new StoredAnswer(status, json.readValue(headers, HEADERS), sealed ? seal.open(kept) : kept, sealed);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A kept answer's headers are unreadable", e);
        }
    }

    /** The body as a store keeps it. */
    String keptBody(AnswerSeal seal) {
        return sealed ? seal.seal(body) : body;
    }

    /** The headers as a store keeps them. */
    String headersJson(ObjectMapper json) {
        try {
            return json.writeValueAsString(headers);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Header values always serialise", e);
        }
    }

    byte[] bytes() {
        return body.getBytes(StandardCharsets.UTF_8);
    }

    MediaType type() {
        return MediaType.valueOf(headers.get(HttpHeaders.CONTENT_TYPE));
    }

    /** The answer again, marked as a replay. */
    Response replay() {
        Response.ResponseBuilder replay = Response.status(status).entity(bytes()).header(Headers.REPLAYED, "true");
        headers.forEach((name, value) -> {
            if (name.equals(HttpHeaders.CONTENT_TYPE)) {
                replay.type(value);
            } else {
                replay.header(name, value);
            }
        });
        return replay.build();
    }

    private static byte[] bytes(Object entity, ObjectMapper json) {
        if (entity == null) {
            return new byte[0];
        }
        if (entity instanceof byte[] raw) {
            return raw;
        }
        if (entity instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        try {
            return json.writeValueAsBytes(entity);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An answer's entity does not serialise", e);
        }
    }
}
