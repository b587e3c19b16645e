package io.orderflow.shared.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.problem.Problem;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Request bodies before any endpoint sees them: a declared body over
 * {@code quarkus.http.limits.max-body-size} is answered 413 with a problem detail before it is
 * read, and every POST body is read into memory once, where the Idempotency-Key check fingerprints
 * it and the endpoint then reads it.
 */
@ApplicationScoped
public class RequestBodies {

    private final long maxBytes;
    private final byte[] tooLarge;

    public RequestBodies(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit, ObjectMapper json)
            throws JsonProcessingException {
        this.maxBytes = limit.asLongValue();
        this.tooLarge = json.writeValueAsBytes(Problem.of(413, "payload-too-large", "Payload too large",
                "The request body is larger than " + maxBytes / 1024 + " KiB."));
    }

    /** The body of a POST as read by {@link #register}; empty when it had none. */
    public static byte[] of(RoutingContext context) {
        Buffer body = context.body() == null ? null : context.body().buffer();
        return body == null ? new byte[0] : body.getBytes();
    }

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::refuseOversized);
        BodyHandler reader = BodyHandler.create(false).setBodyLimit(maxBytes);
        router.route(HttpMethod.POST, "/*").order(Integer.MIN_VALUE + 1).handler(context -> {
            // An empty body is left alone: the endpoint would wait for a body already read as empty;
            // the sign-in form is read by Quarkus's form authentication itself.
            if ("0".equals(context.request().getHeader(HttpHeaders.CONTENT_LENGTH)) || context.request().path().equals("/j_security_check")) {
                context.next();
            } else {
                reader.handle(context);
            }
        }).failureHandler(context -> {
            // A body without a declared length that outgrows the limit while it is read.
            if (context.statusCode() == 413) {
                tooLarge(context);
            } else {
                context.next();
            }
        });
    }

    private void refuseOversized(RoutingContext context) {
        String length = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && declaredLength(length) > maxBytes) {
            tooLarge(context);
            return;
        }
        context.next();
    }

    private void tooLarge(RoutingContext context) {
        context.response().setStatusCode(413)
                .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end(Buffer.buffer(tooLarge));
    }

    private static long declaredLength(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
