package io.orderflow.idempotency;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.shared.Hashing;
import io.orderflow.shared.http.Headers;
import io.orderflow.shared.http.RequestBodies;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;
import io.vertx.ext.web.RoutingContext;

/**
 * Idempotency-Key on every POST, after draft-ietf-httpapi-idempotency-key-header: the first request
 * with a key runs and its final answer is kept; a retry with the same key and request gets that
 * answer again, with {@code Idempotent-Replayed: true}. Keys are scoped to (principal, method, path).
 */
public class IdempotencyFilter {

    private static final String CLAIM = IdempotencyFilter.class.getName() + ".claim";
    private static final List<String> KEPT_HEADERS = List.of(HttpHeaders.LOCATION, HttpHeaders.CONTENT_TYPE, HttpHeaders.CACHE_CONTROL);
    private static final Logger LOG = Logger.getLogger(IdempotencyFilter.class);

    private final IdempotencyStore store;
    private final ObjectMapper json;
    private final MeterRegistry metrics;

    public IdempotencyFilter(IdempotencyStore store, ObjectMapper json, MeterRegistry metrics) {
        this.store = store;
        this.json = json;
        this.metrics = metrics;
    }

    @ServerRequestFilter
    public Response claim(ContainerRequestContext request, RoutingContext routing, ResourceInfo resource) {
        // Every endpoint of the API acts for a principal; the anonymous ones stand in for third parties (sandbox).
        if (!"POST".equals(request.getMethod()) || request.getSecurityContext().getUserPrincipal() == null) {
            return null;
        }
        String key = IdempotencyKeys.parse(request.getHeaders().get(IdempotencyKeys.HEADER));
        if (key == null) {
            if (resource.getResourceMethod().isAnnotationPresent(IdempotencyKeyRequired.class)) {
                throw IdempotencyKeys.missing();
            }
            return null;
        }
        String path = request.getUriInfo().getPath();
        String principal = request.getSecurityContext().getUserPrincipal().getName();
        KeyClaim claim = store.claim(principal, "POST", path, key, RequestFingerprint.of("POST", path, RequestBodies.of(routing)));
        count(claim.outcome());
        return switch (claim.outcome()) {
            case CLAIMED, TAKEN_OVER -> {
                request.setProperty(CLAIM, claim);
                yield null;
            }
            case REPLAY -> {
                LOG.infof("Replayed POST %s for Idempotency-Key %s", path, Hashing.sha256Hex(key).substring(0, 16));
                yield replay(claim.answer());
            }
            case IN_USE -> throw new ProblemException(Problem.of(409, "idempotency-key-in-use", "Idempotency-Key in use",
                    "A request with this Idempotency-Key is still running; retry shortly to get its answer."), Duration.ofSeconds(1));
            case MISMATCH -> throw new ProblemException(Problem.of(422, "idempotency-key-reused", "Idempotency-Key reused",
                    "This Idempotency-Key was used for a different request; use a new key for a new request."));
        };
    }

    @ServerResponseFilter
    public void keep(ContainerRequestContext request, ContainerResponseContext response) {
        if (!(request.getProperty(CLAIM) instanceof KeyClaim claim)) {
            return;
        }
        request.removeProperty(CLAIM);
        try {
            MediaType type = mediaType(response);
            byte[] body = bytes(response.getEntity());
            if (!isFinal(response.getStatus(), body)) {
                store.release(claim);
                return;
            }
            // The first answer goes out as the very bytes that replays will send.
            response.setEntity(body, response.getEntityAnnotations(), type);
            Map<String, String> headers = new LinkedHashMap<>();
            for (String name : KEPT_HEADERS) {
                String value = name.equals(HttpHeaders.CONTENT_TYPE) ? type.toString() : response.getHeaderString(name);
                if (value != null) {
                    headers.put(name, value);
                }
            }
            store.complete(claim, new StoredAnswer(response.getStatus(), headers, new String(body, StandardCharsets.UTF_8)));
        } catch (RuntimeException e) {
            // The answer still goes out; the key's lease runs out and a retry runs again.
            LOG.warnf("Could not keep the answer for an Idempotency-Key: %s", e.toString());
        }
    }

    /**
     * Answers worth replaying: successes and business outcomes. Refusals a retry may cure
     * (400, 401, 403, 409 in-use, 410, 413, 429) and failures (5xx) free the key instead.
     */
    private boolean isFinal(int status, byte[] body) {
        if (status >= 200 && status < 300) {
            return true;
        }
        return switch (status) {
            case 402, 404, 422 -> true;
            case 409 -> "invalid-transition".equals(problemCode(body));
            default -> false;
        };
    }

    private String problemCode(byte[] body) {
        try {
            return json.readTree(body).path("code").asText();
        } catch (IOException e) {
            return null;
        }
    }

    /** The type the answer is sent with; JSON written from objects says its charset, as it does without a key. */
    private static MediaType mediaType(ContainerResponseContext response) {
        MediaType type = response.getMediaType() != null ? response.getMediaType() : MediaType.APPLICATION_JSON_TYPE;
        boolean written = !(response.getEntity() instanceof byte[]);
        return written && type.isCompatible(MediaType.APPLICATION_JSON_TYPE) && !type.getParameters().containsKey(MediaType.CHARSET_PARAMETER)
                ? type.withCharset("UTF-8") : type;
    }

    private Response replay(StoredAnswer answer) {
        Response.ResponseBuilder replay = Response.status(answer.status())
                .entity(answer.body().getBytes(StandardCharsets.UTF_8))
                .header(Headers.REPLAYED, "true");
        answer.headers().forEach((name, value) -> {
            if (name.equals(HttpHeaders.CONTENT_TYPE)) {
                replay.type(value);
            } else {
                replay.header(name, value);
            }
        });
        return replay.build();
    }

    private byte[] bytes(Object entity) {
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

    private void count(KeyClaim.Outcome outcome) {
        metrics.counter("orders.idempotency.requests", "outcome", outcome.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                .increment();
    }
}
