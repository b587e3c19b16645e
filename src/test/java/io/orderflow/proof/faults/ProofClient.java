package io.orderflow.proof.faults;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A client as a real one behaves: on no answer, a 5xx, 429 or a 409 saying the same request is still
 * in progress, it sends the very same request again (same Order-Token, same Idempotency-Key, same
 * body), to the next instance, after a jittered backoff that honours Retry-After, until it gets any
 * other answer or its retry budget is spent. The instances are those in service at each try, as a load
 * balancer's endpoints change during a rolling upgrade.
 */
final class ProofClient {

    /** A request as sent on every try. */
    record Request(String user, String path, String body, String orderToken, String idempotencyKey) {
    }

    /**
     * The final answer to a request: status, problem code, and the order's id and status when the body
     * is an order; status 0 when the budget ran out without one.
     */
    record Answer(int status, String code, String orderId, String orderStatus, String token, int instance) {

        boolean gaveUp() {
            return status == 0;
        }

        /** Two answers say the same thing: status, problem code and order. */
        boolean agreesWith(Answer other) {
            return status == other.status && Objects.equals(code, other.code) && Objects.equals(orderId, other.orderId);
        }
    }

    private static final Set<String> STILL_IN_PROGRESS = Set.of("order-token-in-use", "idempotency-key-in-use", "payment-in-progress");
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(40);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(50);
    private static final Duration LONGEST_BACKOFF = Duration.ofSeconds(1);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final Supplier<List<URI>> instances;
    private final Traffic traffic;

    ProofClient(HttpClient http, Supplier<List<URI>> instances, Traffic traffic) {
        this.http = http;
        this.instances = instances;
        this.traffic = traffic;
    }

    /** Sends the request to the first instance, and each retry to the next. */
    Answer send(Request request, int firstInstance) {
        long giveUpAt = System.nanoTime() + ProofSettings.RETRY_BUDGET.toNanos();
        for (int attempt = 0;; attempt++) {
            List<URI> inService = instances.get();
            int instance = (firstInstance + attempt) % inService.size();
            Duration wait = backoff(attempt);
            long sentAt = traffic.sent();
            try {
                HttpResponse<String> response = http.send(build(request, inService.get(instance)), HttpResponse.BodyHandlers.ofString());
                traffic.answered(sentAt);
                JsonNode body = parse(response.body());
                String code = text(body, "code");
                int status = response.statusCode();
                if (status >= 500) {
                    traffic.failed(status);
                } else if (!(status == 429 || status == 409 && STILL_IN_PROGRESS.contains(code))) {
                    String orderStatus = status < 300 ? text(body, "status") : null;
                    return new Answer(status, code, orderId(body), orderStatus, text(body, "token"), instance);
                }
                wait = retryAfter(response).orElse(wait);
            } catch (IOException noAnswer) {
                traffic.failed(0);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            if (System.nanoTime() + wait.toNanos() > giveUpAt) {
                return new Answer(0, "gave-up", null, null, null, instance);
            }
            Processes.pause(wait);
        }
    }

    private HttpRequest build(Request request, URI instance) {
        String credentials = Base64.getEncoder().encodeToString((request.user() + ":" + request.user()).getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder builder = HttpRequest.newBuilder(instance.resolve(request.path())).timeout(REQUEST_TIMEOUT)
                .header("Authorization", "Basic " + credentials).header("Accept", "application/json");
        if (request.body() == null) {
            builder.POST(HttpRequest.BodyPublishers.noBody());
        } else {
            builder.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(request.body()));
        }
        if (request.orderToken() != null) {
            builder.header("Order-Token", request.orderToken());
        }
        if (request.idempotencyKey() != null) {
            builder.header("Idempotency-Key", request.idempotencyKey());
        }
        return builder.build();
    }

    /** Exponential from 50 ms, capped at 1 s, with full jitter. */
    private static Duration backoff(int attempt) {
        long ceiling = Math.min(LONGEST_BACKOFF.toMillis(), FIRST_BACKOFF.toMillis() << Math.min(attempt, 10));
        return Duration.ofMillis(ThreadLocalRandom.current().nextLong(ceiling / 2, ceiling + 1));
    }

    /** Retry-After in seconds, capped at the longest backoff (the clients here are impatient on purpose). */
    private static Optional<Duration> retryAfter(HttpResponse<String> response) {
        return response.headers().firstValue("Retry-After").map(seconds -> {
            try {
                return Duration.ofSeconds(Long.parseLong(seconds.trim()));
            } catch (NumberFormatException e) {
                return LONGEST_BACKOFF;
            }
        }).map(after -> after.compareTo(LONGEST_BACKOFF) > 0 ? LONGEST_BACKOFF : after);
    }

    private static JsonNode parse(String body) {
        try {
            return body == null || body.isBlank() ? JSON.nullNode() : JSON.readTree(body);
        } catch (IOException notJson) {
            return JSON.nullNode();
        }
    }

    /** The order's id: "id" of an order body, "orderId" of a problem that names one (order-token-reused). */
    private static String orderId(JsonNode body) {
        String id = text(body, "id");
        return id != null ? id : text(body, "orderId");
    }

    private static String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
