package io.orderflow.shared.downstream;

import java.io.IOException;
import java.io.InputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The short reason a provider gives in the body of a refusal, for staff to read: Stripe's
 * {@code {"error":{"code":"...","message":"..."}}}, the sandbox's {@code {"reason":"..."}}, or a problem
 * detail's {@code title} and {@code detail}. Only JSON is read: a body of another kind (a balancer's HTML
 * page, a stack trace) says nothing staff can act on, and is kept out of what they see.
 */
final class ProviderReason {

    /** Longer reasons are cut here: a reason is a line on a staff list, not a document. */
    static final int MAX_LENGTH = 300;
    /** A refusal's body is small; reading no more than this bounds what a misbehaving provider costs. */
    private static final int MAX_BODY = 16 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private ProviderReason() {
    }

    /** The reason in the answer's body, or null when it holds none that can be read. */
    static String of(Response response) {
        if (!response.hasEntity()) {
            return null;
        }
        try (InputStream body = response.readEntity(InputStream.class)) {
            return body == null ? null : of(body.readNBytes(MAX_BODY));
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }

    /** The reason in a body, or null; a body cut at the bound is unreadable JSON, so it gives none. */
    static String of(byte[] body) {
        JsonNode answer;
        try {
            answer = JSON.readTree(body);
        } catch (IOException notJson) {
            return null;
        }
        if (answer == null || !answer.isObject()) {
            return null;
        }
        JsonNode error = answer.path("error");
        String reason = error.isObject() ? joined(error.path("code"), error.path("message"))
                : joined(error, answer.path("reason"), answer.path("message"), answer.path("title"), answer.path("detail"));
        return reason.isEmpty() ? null : shortened(reason);
    }

    /** The texts among these values, joined with ": ". */
    private static String joined(JsonNode... values) {
        return Stream.of(values).filter(JsonNode::isTextual).map(JsonNode::asText).map(String::strip).filter(text -> !text.isEmpty())
                .collect(Collectors.joining(": "));
    }

    /** On one line, without control characters, at most {@link #MAX_LENGTH} characters. */
    private static String shortened(String reason) {
        String line = reason.replaceAll("\\p{Cntrl}+", " ").replaceAll("\\s+", " ").strip();
        return line.length() <= MAX_LENGTH ? line : line.substring(0, MAX_LENGTH - 1) + "…";
    }
}
