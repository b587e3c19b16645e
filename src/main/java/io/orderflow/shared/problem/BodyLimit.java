package io.orderflow.shared.problem;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;

/**
 * Answers a declared body over {@code quarkus.http.limits.max-body-size} with a 413 problem
 * detail before anything reads it; Quarkus's own limit, which stays as the last guard for
 * bodies without a length, answers with an empty 413.
 */
@ApplicationScoped
public class BodyLimit {

    private final long maxBytes;
    private final byte[] tooLarge;

    public BodyLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit, ObjectMapper json)
            throws JsonProcessingException {
        this.maxBytes = limit.asLongValue();
        this.tooLarge = json.writeValueAsBytes(Problem.of(413, "payload-too-large", "Payload too large",
                "The request body is larger than " + maxBytes / 1024 + " KiB."));
    }

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(context -> {
            String length = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (length != null && declaredLength(length) > maxBytes) {
                context.response().setStatusCode(413)
                        .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                        .putHeader(HttpHeaders.CONNECTION, "close")
                        .end(Buffer.buffer(tooLarge));
                return;
            }
            context.next();
        });
    }

    private static long declaredLength(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
