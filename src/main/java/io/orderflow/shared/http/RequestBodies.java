package io.orderflow.shared.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
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
 * it and the endpoint then reads it. Bodies no endpoint could read are refused with a problem
 * detail before anything parses them: multipart (415), a sign-in that is no form (415), a form
 * with a broken escape (400).
 */
@ApplicationScoped
public class RequestBodies {

    /** The order of a POST's checks that need no body ({@link CredentialsBeforeBody}): after the length's, before the reading. */
    static final int BEFORE_READING = Integer.MIN_VALUE + 1;
    private static final String READ = RequestBodies.class.getName() + ".read";
    private static final String FORM = "application/x-www-form-urlencoded";
    private static final String SIGN_IN = "/j_security_check";

    private final long maxBytes;
    private final ObjectMapper json;

    public RequestBodies(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit, ObjectMapper json) {
        this.maxBytes = limit.asLongValue();
        this.json = json;
    }

    /** The body of a POST as read by {@link #register}; empty when it had none. */
    public static byte[] of(RoutingContext context) {
        Buffer body = context.body() == null ? null : context.body().buffer();
        return body == null ? new byte[0] : body.getBytes();
    }

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::refuseOversized);
        BodyHandler reader = BodyHandler.create(false).setBodyLimit(maxBytes);
        router.route(HttpMethod.POST, "/*").order(BEFORE_READING + 1).handler(context -> {
            if (isSignIn(context) && !hasType(context, FORM)) {
                // Quarkus's form authentication fails on any other type instead of refusing it.
                refuse(context, unsupported("Send the sign-in form as " + FORM + "."));
            } else if (isMultipart(context)) {
                // No endpoint takes multipart; one that takes any type would wait for parts that never come, holding its thread.
                refuse(context, unsupported("This service takes no multipart bodies."));
            } else if ("0".equals(context.request().getHeader(HttpHeaders.CONTENT_LENGTH)) || isSignIn(context)) {
                // An empty body is left alone: the endpoint would wait for a body already read as empty;
                // the sign-in form is read by Quarkus's form authentication itself.
                context.next();
            } else {
                reader.handle(context);
            }
        }).failureHandler(context -> {
            // A body without a declared length that outgrows the limit while it is read.
            if (context.statusCode() == 413) {
                tooLarge(context);
            } else if (context.get(READ) == null) {
                // Reading failed: a form Netty cannot decode (bad escapes, an empty name, a field over the form limits).
                unreadable(context);
            } else {
                context.next();
            }
        });
        router.route(HttpMethod.POST, "/*").order(BEFORE_READING + 2).handler(context -> {
            context.put(READ, true);
            // Netty passes a name without '=' undecoded, which the endpoint's form parser then fails on.
            if (hasType(context, FORM) && !isUrlEncoded(of(context))) {
                unreadable(context);
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
        refuse(context, Problem.tooLarge(maxBytes));
    }

    private void unreadable(RoutingContext context) {
        refuse(context, Problem.of(ProblemCode.MALFORMED_BODY, "The request body cannot be read as the Content-Type it was sent with."));
    }

    private static Problem unsupported(String detail) {
        return Problem.of(ProblemCode.UNSUPPORTED_MEDIA_TYPE, detail);
    }

    /** Answers at once, with any further headers given as name, value, ...; the connection closes, since the rest of the body may still be on its way. */
    void refuse(RoutingContext context, Problem problem, String... headers) {
        try {
            context.response().setStatusCode(problem.status())
                    .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                    .putHeader(HttpHeaders.CONNECTION, "close");
            for (int i = 0; i + 1 < headers.length; i += 2) {
                context.response().putHeader(headers[i], headers[i + 1]);
            }
            context.response().end(Buffer.buffer(json.writeValueAsBytes(problem)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A problem detail always serialises", e);
        }
    }

    private static boolean isSignIn(RoutingContext context) {
        return context.request().path().equals(SIGN_IN);
    }

    /** Whether the Content-Type is this type, whatever its parameters. */
    static boolean hasType(RoutingContext context, String type) {
        String contentType = context.request().getHeader(HttpHeaders.CONTENT_TYPE);
        return contentType != null && contentType.split(";", 2)[0].trim().equalsIgnoreCase(type);
    }

    /** As Vert.x tells multipart, which decodes the body as parts for any type that names multipart. */
    private static boolean isMultipart(RoutingContext context) {
        String contentType = context.request().getHeader(HttpHeaders.CONTENT_TYPE);
        return contentType != null && contentType.toLowerCase(Locale.ROOT).contains("multipart/");
    }

    private static boolean isUrlEncoded(byte[] body) {
        try {
            URLDecoder.decode(new String(body, StandardCharsets.UTF_8), StandardCharsets.UTF_8);
            return true;
        } catch (IllegalArgumentException badEscape) {
            return false;
        }
    }

    private static long declaredLength(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
