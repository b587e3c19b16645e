package io.orderflow.shared.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.socket.DuplexChannel;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.security.SecurityHandlerPriorities;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Request bodies before any endpoint sees them: a declared body over
 * {@code quarkus.http.limits.max-body-size} is answered 413 with a problem detail before it is
 * read, and every POST and PUT body is read into memory once, where the Idempotency-Key check fingerprints
 * it and the endpoint then reads it. Bodies no endpoint could read are refused with a problem
 * detail before anything parses them: multipart (415), a sign-in that is no form (415), a form
 * with a broken escape (400).
 */
@ApplicationScoped
public class RequestBodies {

    /**
     * The order of a POST's checks that need no body ({@link CredentialsBeforeBody}): after the length's and
     * after Quarkus's authentication handler (which offers the caller's identity) and Quarkus REST's handler of its
     * failures, before the reading.
     */
    static final int BEFORE_READING = -SecurityHandlerPriorities.AUTHENTICATION + 2;
    private static final String READING = RequestBodies.class.getName() + ".reading";
    private static final String READ = RequestBodies.class.getName() + ".read";
    private static final String FORM = "application/x-www-form-urlencoded";
    private static final String SIGN_IN = "/j_security_check";

    /** How much of a refused body is read and dropped at most, in body limits. */
    private static final int LINGER_LIMITS = 4;
    /** How long a refused body is read and dropped at most, in stall timeouts. */
    private static final int LINGER_STALLS = 6;

    private final long maxBytes;
    private final long stallMillis;
    private final ObjectMapper json;

    public RequestBodies(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit,
            @ConfigProperty(name = "orders.http.body-stall-timeout", defaultValue = "5S") Duration stall, ObjectMapper json) {
        this.maxBytes = limit.asLongValue();
        this.stallMillis = stall.toMillis();
        this.json = json;
    }

    /** The body of a POST as read by {@link #register}; empty when it had none. */
    public static byte[] of(RoutingContext context) {
        Buffer body = context.body() == null ? null : context.body().buffer();
        return body == null ? new byte[0] : body.getBytes();
    }

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::refuseFromHeaders);
        BodyHandler reader = BodyHandler.create(false).setBodyLimit(maxBytes);
        router.route("/*").method(HttpMethod.POST).method(HttpMethod.PUT).order(BEFORE_READING + 1).handler(context -> {
            if ("0".equals(context.request().getHeader(HttpHeaders.CONTENT_LENGTH))) {
                // An empty body is left alone (the endpoint would wait for a body already read as empty), and is read.
                context.put(READ, true);
                context.next();
            } else if (isSignIn(context)) {
                // The sign-in form is read by Quarkus's form authentication itself.
                context.next();
            } else {
                context.put(READING, true);
                refuseIfStalled(context);
                reader.handle(context);
            }
        }).failureHandler(context -> {
            if (context.response().headWritten()) {
                // Already answered (a stalled body), and the connection closed under the reader: nothing is left to say.
                return;
            }
            // A body without a declared length that outgrows the limit while it is read.
            if (context.statusCode() == 413) {
                tooLarge(context);
            } else if (context.get(READING) != null && context.get(READ) == null) {
                // Reading failed: a form Netty cannot decode (bad escapes, an empty name, a field over the form limits).
                unreadable(context);
            } else {
                context.next();
            }
        });
        router.route("/*").method(HttpMethod.POST).method(HttpMethod.PUT).order(BEFORE_READING + 2).handler(context -> {
            context.put(READ, true);
            // Netty passes a name without '=' undecoded, which the endpoint's form parser then fails on.
            if (hasType(context, FORM) && !isUrlEncoded(of(context))) {
                unreadable(context);
            } else {
                context.next();
            }
        });
    }

    /**
     * Answers 408 and closes the connection when no byte of the body arrived for the stall timeout: a
     * client that sends its body slowly, or stops, holds the body's memory no longer than that.
     */
    private void refuseIfStalled(RoutingContext context) {
        HttpServerRequest request = context.request();
        long[] bytesSeen = { request.bytesRead() };
        long timer = context.vertx().setPeriodic(stallMillis, id -> {
            if (context.get(READ) != null || context.response().ended()) {
                context.vertx().cancelTimer(id);
            } else if (request.bytesRead() == bytesSeen[0]) {
                context.vertx().cancelTimer(id);
                refuse(context, Problem.of(ProblemCode.REQUEST_TIMEOUT,
                        "The request body stopped arriving: no byte of it came for " + stallMillis + " ms. Send it again, at once."));
            } else {
                bytesSeen[0] = request.bytesRead();
            }
        });
        context.addEndHandler(ended -> context.vertx().cancelTimer(timer));
    }

    /** Refuses from its headers a body no endpoint would take: too large, multipart, or a sign-in that is no form. */
    private void refuseFromHeaders(RoutingContext context) {
        String length = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && declaredLength(length) > maxBytes) {
            tooLarge(context);
        } else if (context.request().method() == HttpMethod.POST && isSignIn(context) && !hasType(context, FORM)) {
            // Quarkus's form authentication fails on any other type instead of refusing it.
            refuse(context, unsupported("Send the sign-in form as " + FORM + "."));
        } else if (context.request().method() == HttpMethod.POST && isMultipart(context)) {
            // No endpoint takes multipart; one that takes any type would wait for parts that never come, holding its thread.
            refuse(context, unsupported("This service takes no multipart bodies."));
        } else {
            context.next();
        }
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

    /** Answers at once, with any further headers given as name, value, ...; the connection ends, since the rest of the body may still be on its way. */
    void refuse(RoutingContext context, Problem problem, String... headers) {
        try {
            context.response().setStatusCode(problem.status())
                    .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                    .putHeader(HttpHeaders.CONNECTION, "close");
            for (int i = 0; i + 1 < headers.length; i += 2) {
                context.response().putHeader(headers[i], headers[i + 1]);
            }
            context.response().end(Buffer.buffer(json.writeValueAsBytes(problem))).onComplete(written -> {
                if (problem.status() == ProblemCode.REQUEST_TIMEOUT.status()) {
                    // A body that stopped arriving leaves nothing to wait for.
                    context.request().connection().close();
                } else {
                    closeUnlessRead(context);
                }
            });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A problem detail always serialises", e);
        }
    }

    /**
     * Ends the connection of an answer sent before its request's body was read, since the rest of the body may
     * still be on its way: Vert.x would otherwise keep the connection open until it came. Closing with the body's
     * bytes unread would make the kernel reset the connection, and a client that writes its whole body before it
     * reads, as most do, would lose the answer. So the answer is followed by the end of output, and the rest of
     * the body is read and dropped until it ends, the client closes, no byte of it came for the stall timeout,
     * it outgrows {@value #LINGER_LIMITS} times the body limit, or {@value #LINGER_STALLS} stall timeouts passed.
     */
    void closeUnlessRead(RoutingContext context) {
        if (wasRead(context)) {
            return;
        }
        HttpServerRequest request = context.request();
        HttpConnection connection = request.connection();
        Channel channel = ((ConnectionBase) connection).channel();
        channel.eventLoop().execute(() -> {
            if (request.isEnded() || declaredLength(request.getHeader(HttpHeaders.CONTENT_LENGTH)) > lingerBytes()) {
                connection.close();
                return;
            }
            request.handler(dropped -> {
                if (request.bytesRead() > lingerBytes()) {
                    connection.close();
                }
            });
            request.endHandler(ended -> connection.close());
            request.resume();
            long[] bytesSeen = { request.bytesRead() };
            int[] stalls = { 0 };
            long timer = context.vertx().setPeriodic(stallMillis, id -> {
                if (request.bytesRead() == bytesSeen[0] || ++stalls[0] >= LINGER_STALLS) {
                    connection.close();
                } else {
                    bytesSeen[0] = request.bytesRead();
                }
            });
            channel.closeFuture().addListener(closed -> context.vertx().cancelTimer(timer));
            // After everything written so far, the answer among it: a shutdown drops writes still pending.
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(written -> ((DuplexChannel) channel).shutdownOutput());
        });
    }

    private long lingerBytes() {
        return LINGER_LIMITS * maxBytes;
    }

    /**
     * Whether the request's body was read to its end here, or (with no body to read, or its body left to the sign-in)
     * the request had ended before any endpoint paused it: a paused request does not count as ended.
     */
    static boolean wasRead(RoutingContext context) {
        return context.get(READ) != null || context.request().isEnded();
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

    /** The length a Content-Length header declares; 0 without one (a chunked body) or with one that is no number. */
    private static long declaredLength(String header) {
        if (header == null) {
            return 0;
        }
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
