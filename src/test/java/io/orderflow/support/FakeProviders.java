package io.orderflow.support;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A payment provider and warehouse whose answers a test scripts (e.g. a 429 with Retry-After, then a
 * success), recording every call with its key, arrival time and the status it was answered. Unscripted
 * calls succeed, or go on to a real provider a test names (e.g. the app's sandbox, whose ledger and
 * charge listing then hold what got through). Provider retries start at 20 ms, wait at most 1 s, and
 * give up after 3 s.
 */
public class FakeProviders implements QuarkusTestResourceLifecycleManager {

    /** A scripted answer. */
    public record Reply(int status, Map<String, String> headers) {
        public static Reply status(int status) {
            return new Reply(status, Map.of());
        }
    }

    /** A call that arrived, and the status it was answered. */
    public record Call(String path, String key, Instant at, int status) {
    }

    private static final Map<String, Deque<Reply>> SCRIPTS = new ConcurrentHashMap<>();
    private static final List<Call> CALLS = new ArrayList<>();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static HttpServer server;
    private static volatile URI provider;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/", FakeProviders::answer);
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of(
                "quarkus.rest-client.payment-provider.url", base + "/payments",
                "quarkus.rest-client.warehouse.url", base + "/warehouse",
                "io.orderflow.payment.PaymentGateway/Retry/delay", "20",
                "io.orderflow.payment.PaymentGateway/Retry/maxDuration", "3000",
                "io.orderflow.payment.PaymentGateway/Retry/durationUnit", "MILLIS",
                "orders.downstream.max-delay", "1s",
                "orders.outbox.base-delay", "20ms",
                "orders.outbox.max-attempts", "3",
                "orders.outbox.poll-interval", "100ms");
    }

    @Override
    public void stop() {
        server.stop(0);
    }

    /** The next answers at a path such as {@code /payments/charges}; afterwards calls succeed again. */
    public static void script(String path, Reply... replies) {
        SCRIPTS.computeIfAbsent(path, p -> new ArrayDeque<>()).addAll(List.of(replies));
    }

    /** Calls at this path are answered as if its script had run out: the provider is back. */
    public static void endScript(String path) {
        SCRIPTS.remove(path);
    }

    /**
     * From now on unscripted calls go on to this provider, e.g. {@code http://127.0.0.1:port/sandbox} for the
     * app's sandbox ({@code /payments/refunds} goes to {@code .../sandbox/payments/refunds}), and its answers come back.
     */
    public static void forwardTo(URI realProvider) {
        provider = realProvider;
    }

    /** Calls succeed here again, unscripted and not forwarded. */
    public static void clearScripts() {
        SCRIPTS.clear();
        provider = null;
    }

    public static List<Call> calls(String path, String key) {
        synchronized (CALLS) {
            return CALLS.stream().filter(call -> call.path().equals(path) && key.equals(call.key())).toList();
        }
    }

    private static void answer(HttpExchange exchange) throws IOException {
        Instant at = Instant.now();
        String path = exchange.getRequestURI().getPath();
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        byte[] request = exchange.getRequestBody().readAllBytes();
        Deque<Reply> script = SCRIPTS.get(path);
        Reply reply;
        synchronized (FakeProviders.class) {
            reply = script == null ? null : script.poll();
        }
        URI forwardTo = provider;
        Answer answer = reply == null && forwardTo != null ? forward(exchange, request, forwardTo) : answer(reply == null ? Reply.status(201) : reply, key);
        // Recorded before the answer leaves: a test that got its own answer finds every call behind it.
        synchronized (CALLS) {
            CALLS.add(new Call(path, key, at, answer.status()));
        }
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        answer.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        exchange.sendResponseHeaders(answer.status(), answer.body().length == 0 ? -1 : answer.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer.body());
        }
    }

    private record Answer(int status, Map<String, String> headers, byte[] body) {
    }

    private static Answer answer(Reply reply, String key) {
        String body = reply.status() < 300 ? "{\"reference\":\"fake-" + key + "\",\"key\":\"" + key + "\",\"status\":\"succeeded\"}"
                : "{\"status\":\"refused\"}";
        return new Answer(reply.status(), reply.headers(), body.getBytes(StandardCharsets.UTF_8));
    }

    /** Passes the call on with its method, query, key and body; the real provider's answer. */
    private static Answer forward(HttpExchange exchange, byte[] request, URI forwardTo) throws IOException {
        HttpRequest.Builder call = HttpRequest.newBuilder(URI.create(forwardTo + exchange.getRequestURI().toString()))
                .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(request));
        for (String header : List.of("Idempotency-Key", "Content-Type", "Accept", "Authorization")) {
            String value = exchange.getRequestHeaders().getFirst(header);
            if (value != null) {
                call.header(header, value);
            }
        }
        try {
            HttpResponse<byte[]> answer = HTTP.send(call.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(answer.statusCode(), answer.headers().firstValue("Retry-After").map(after -> Map.of("Retry-After", after)).orElse(Map.of()),
                    answer.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
